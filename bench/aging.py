"""An aged store: how much decay fades and consolidation would archive, on LoCoMo conversations.

    .venv/bin/python bench/aging.py [--data ../shared/data/locomo/locomo-dev.json]
        [--days 90] [--data-dir DIR] [--learned-now]

Per conversation, in its own namespace of a fresh embedded store: the sessions are ingested in
date order with the service clock (``graph.clock``) set to each session's date, one memory per
turn as ``bench/locomo.py`` builds them (event time: the session date); consecutive turns are
linked. Then the clock moves ``--days`` past the conversation's last session, the ``decay`` job
runs and consolidation plans a dry run (offline decider, gate forced, nothing written).

Printed per conversation and in total: active memories; how many decay left under 0.01 (and,
for comparison, how many it would have if it counted from event time, as it did before the two
clocks); how many are faded under the weak threshold (what consolidation archived before it
asked for a weak base and a grace period); and how many the dry run proposes to archive as weak,
with the fraction (target: under 5%) and the other operations it plans.

``--learned-now``: the service learns every conversation today (the clock follows the wall
clock; no advance): a store ingested from old transcripts, as in issue 20, where decay counted
from event time left 744 of 779 memories of one conversation under 0.01.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import graph  # noqa: E402
from bench import locomo_data as data  # noqa: E402
from bench.locomo import session_memories  # noqa: E402
from hippograph.graph import clock, transfer  # noqa: E402
from hippograph.graph.model import parse_iso  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.graph.upkeep import consolidation  # noqa: E402
from hippograph.graph.upkeep.decay import memory_confidence  # noqa: E402
from hippograph.graph.write import formation, writepath  # noqa: E402
from hippograph.jobs import consolidate as consolidate_job  # noqa: E402
from hippograph.jobs import registry  # noqa: E402
from hippograph.jobs.config import JobsConfig  # noqa: E402
from hippograph.jobs.runner import RunOptions  # noqa: E402

FADED = 0.01
COLUMNS = ("active", "faded", "faded_by_event", "weak_faded", "proposed", "other_ops")


def ingest(
    rt: Runtime,
    conv: data.Conversation,
    namespace: str,
    *,
    dated: bool = True,
    before_session: Callable[[datetime], None] | None = None,
) -> None:
    """The sessions in date order, each with the service clock at the session's date (or, not
    ``dated``, at whatever time it is); consecutive turns linked after each session.

    before_session: called with each session's date (UTC) before the clock moves there (what
        happens in between: ``bench/lifecycle.py`` runs the worker's jobs)."""
    sessions: dict[int, list[data.Turn]] = {}
    for turn in conv.turns:
        sessions.setdefault(turn.session, []).append(turn)
    for number, turns in sorted(sessions.items(), key=lambda kv: kv[1][0].time):
        if dated:
            at = turns[0].time.replace(tzinfo=UTC)
            if before_session is not None:
                before_session(at)
            clock.set_now(at)
        items = session_memories(conv, number, turns, rt.limits.max_content_bytes)
        writepath.remember(rt.store, rt.embedder, namespace, items, policy=rt.policy)
        formation.link_adjacent(rt.store, namespace)


def age(rt: Runtime, namespace: str, jobs: JobsConfig) -> Counter[str]:
    """Decay then a consolidation dry run at the service clock's time; what they left."""
    registry.run_job(rt.store, "decay", jobs, RunOptions(namespace=namespace, trigger="bench"))
    config = consolidate_job.config(rt.settings)
    props = [
        r["props"]
        for r in transfer.export_lines(rt.store, namespace)
        if r["kind"] == "memory" and r["props"]["status"] == "active"
    ]
    now = clock.now()
    counts: Counter[str] = Counter(active=len(props))
    for p in props:
        counts["faded"] += p["confidence"] < FADED
        counts["weak_faded"] += (
            p["confidence"] < config.weak_max_confidence
            and int(p.get("strength", 1)) <= config.weak_max_strength
        )
        by_event = memory_confidence(
            initial=float(p["initial_confidence"]),
            memory_type=p["memory_type"],
            provenance=p["provenance"],
            last_used_at=parse_iso(p["created_at"]),
            now=now,
            access_count=int(p.get("access_count", 0)),
            trust=float(p.get("trust_score", 1.0)),
            config=jobs.decay,
        )
        counts["faded_by_event"] += by_event < FADED
    report = consolidation.consolidate(
        rt.store, namespace=namespace, config=config, dry_run=True, force=True
    )
    for op in report.operations:
        if op.op == "archive" and op.keep is None:
            counts["proposed"] += 1
        else:
            counts["other_ops"] += 1
    return counts


def row(name: str, c: Counter[str]) -> str:
    share = c["proposed"] / c["active"] if c["active"] else 0.0
    cells = " ".join(f"{c[k]:>14}" for k in COLUMNS)
    return f"{name:<10} {cells} {share:>9.2%}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=data.DATA_PATH)
    parser.add_argument("--days", type=float, default=90.0)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--learned-now", action="store_true")
    graph.add_arguments(parser)
    args = parser.parse_args()
    conversations = data.load(args.data)
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="hippograph-aging-"))
    rt = Runtime.open(graph.settings(args, data_dir=data_dir), attach=False)
    jobs = JobsConfig.from_settings(rt.settings)
    total: Counter[str] = Counter()
    print(f"{'':<10} " + " ".join(f"{k:>14}" for k in COLUMNS) + f" {'proposed%':>9}")
    try:
        for conv in conversations:
            started = time.perf_counter()
            namespace = f"aging-{conv.sample_id}"
            ingest(rt, conv, namespace, dated=not args.learned_now)
            if not args.learned_now:
                last = max(t.time for t in conv.turns).replace(tzinfo=UTC)
                clock.set_now(last + timedelta(days=args.days))
            counts = age(rt, namespace, jobs)
            total.update(counts)
            print(row(conv.sample_id, counts), f"({time.perf_counter() - started:.0f} s)")
        print(row("total", total))
    finally:
        clock.set_now(None)
        rt.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
