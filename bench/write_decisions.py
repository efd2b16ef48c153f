"""What the write path's decisions do to LoCoMo conversations: how many turns end superseded or
merged into another memory after ingest, and how many gold evidence turns that makes
unreachable.

    python bench/write_decisions.py --data ../shared/data/locomo/locomo-dev.json [--json OUT]
                                    [--show N]

Each conversation is stored exactly as ``bench/locomo.py`` stores it (one memory per turn
through ``memories.remember``, the configured decider: offline unless an LLM is configured),
in its own namespace of a fresh embedded store. Then, per turn:

- ``superseded``: its memory was superseded by a later one (not active any more);
- ``merged``: its text holds no memory of its own (NOOP into another memory, or UPDATE that
  rewrote another memory with it);
- ``rewritten``: its memory's text was replaced by a later turn's (UPDATE);
- ``intact``: an active memory carries the turn's id and still holds its text (as stored:
  stripped, secrets redacted).

An evidence turn of a question (categories 1-4, as ``bench/locomo.py`` asks them) that is not
intact is unreachable: no memory holds what it said. Evidence ids that name no turn are not
counted (the data has a few; see ``locomo_data``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import graph  # noqa: E402
from bench import locomo_data as data  # noqa: E402
from bench.locomo import load  # noqa: E402
from hippograph.graph import transfer  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402

FATES = ("intact", "superseded", "merged", "rewritten")


def fates(rt: Runtime, conv: data.Conversation, namespace: str) -> dict[str, str]:
    """dia_id -> what became of the turn (one of ``FATES``)."""
    lines = list(transfer.export_lines(rt.store, namespace))
    by_turn = {
        p["source_messages"]: p
        for line in lines
        if line["kind"] == "memory"
        for p in [line["props"]]
    }
    out: dict[str, str] = {}
    for turn in conv.turns:
        memory = by_turn.get(turn.dia_id)
        if memory is None:
            out[turn.dia_id] = "merged"
        elif memory["status"] != "active":
            out[turn.dia_id] = "superseded"
        elif memory.get("history"):  # an UPDATE replaced its text
            out[turn.dia_id] = "rewritten"
        else:
            out[turn.dia_id] = "intact"
    return out


def decisions(rt: Runtime, namespace: str) -> list[dict[str, object]]:
    """The namespace's decisions, each with the first text of its target memory."""
    lines = list(transfer.export_lines(rt.store, namespace))
    first = {
        line["props"]["id"]: _first_text(line["props"])
        for line in lines
        if line["kind"] == "memory"
    }
    made = [line["props"] for line in lines if line["kind"] == "decision"]
    return [{**d, "target_content": first.get(str(d.get("target_id")))} for d in made]


def _first_text(memory: dict[str, object]) -> object:
    """A memory's text before any UPDATE rewrote it."""
    history = memory.get("history") or []
    assert isinstance(history, list)
    return json.loads(history[0]).get("content") if history else memory["content"]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, required=True, help="LoCoMo JSON file")
    parser.add_argument("--json", type=Path, help="write the counts here")
    parser.add_argument("--show", type=int, default=0, help="print up to N changed turns")
    graph.add_arguments(parser)
    args = parser.parse_args()
    conversations = data.load(args.data)
    data_dir = Path(tempfile.mkdtemp(prefix="hippograph-decisions-"))
    rt = Runtime.open(graph.settings(args, data_dir=data_dir), attach=False)
    run_id = time.strftime("%Y%m%d%H%M%S")
    actions: Counter[str] = Counter()
    turn_fates: Counter[str] = Counter()
    evidence_fates: Counter[str] = Counter()
    shown = 0
    per_conversation = {}
    try:
        for conv in conversations:
            namespace = f"decisions-{conv.sample_id}-{run_id}"
            load(rt, conv, namespace)
            made = decisions(rt, namespace)
            actions.update(str(d["action"]) for d in made)
            fate = fates(rt, conv, namespace)
            turn_fates.update(fate.values())
            evidence = {e for q in conv.questions for e in q.evidence if e in fate}
            evidence_fates.update(fate[e] for e in evidence)
            lost = sorted(e for e in evidence if fate[e] != "intact")
            per_conversation[conv.sample_id] = {
                "turns": len(conv.turns),
                "changed": sum(1 for f in fate.values() if f != "intact"),
                "evidence": len(evidence),
                "unreachable": len(lost),
            }
            print(f"{conv.sample_id}: {json.dumps(per_conversation[conv.sample_id])}", flush=True)
            for d in made:
                if shown >= args.show or d["action"] in ("ADD", "CONTRADICT"):
                    continue
                shown += 1
                print(f"  {d['action']} ({d['decider']}, {d.get('reason')})")
                print(f"    new: {str(d['content'])[:110]!r}")
                print(f"    old: {str(d.get('target_content'))[:110]!r}")
    finally:
        rt.close()
    turns = sum(turn_fates.values())
    evidence = sum(evidence_fates.values())
    unreachable = evidence - evidence_fates["intact"]
    print(f"\nLoCoMo {args.data.name}: {len(conversations)} conversations, {turns} turns")
    print("decisions: " + ", ".join(f"{a} {actions[a]}" for a in sorted(actions)))
    print("turns:     " + ", ".join(f"{f} {turn_fates[f]}" for f in FATES))
    print("evidence:  " + ", ".join(f"{f} {evidence_fates[f]}" for f in FATES))
    print(f"unreachable evidence turns: {unreachable} of {evidence}")
    if args.json:
        out = {
            "decisions": dict(actions),
            "turns": {f: turn_fates[f] for f in FATES},
            "evidence": {f: evidence_fates[f] for f in FATES},
            "unreachable_evidence": unreachable,
            "conversations": per_conversation,
        }
        args.json.write_text(json.dumps(out, indent=2))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
