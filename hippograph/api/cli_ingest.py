"""``hippograph ingest | consolidate | rebuild | erase``: the write path and its maintenance.

``ingest`` reads JSON Lines (one turn per line: ``sessionId``, ``turnIndex``, ``text``, and
``speaker`` and/or ``role``, optional ``timestamp`` and ``filePaths``) or a LoCoMo file
(``--locomo``, one conversation by position or sample id), then extracts everything buffered
(``--no-flush`` leaves low-signal turns to the batch/age rules). ``erase`` removes turns, a
session, memories or everything holding a text, with what was derived from them
(``graph/write/erasure.py``), and prints what went.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from hippograph.api.audit import erasure_counts
from hippograph.api.cli_common import data_dir_arg, readable, with_runtime
from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import to_iso
from hippograph.graph.write.messages import NewTurn
from hippograph.settings import Settings

if TYPE_CHECKING:
    from hippograph.graph.runtime import Runtime
    from hippograph.graph.upkeep.consolidation_model import ConsolidationReport

T = TypeVar("T")
CHUNK = 200  # turns per ingest call: a batch is atomic, a file need not be


def register(subparsers: Any) -> None:
    """Add the commands to the ``hippograph`` parser's subparsers."""
    ing = subparsers.add_parser("ingest", help="append conversation turns and extract memories")
    ing.add_argument("source", type=Path, help="a .jsonl file of turns, or a LoCoMo .json")
    ing.add_argument("--namespace", "-n", default="default")
    ing.add_argument("--locomo", action="store_true", help="the file is LoCoMo JSON")
    ing.add_argument("--conversation", default="0", help="LoCoMo: index or sample_id")
    ing.add_argument("--no-flush", dest="flush", action="store_false")
    data_dir_arg(ing)
    ing.set_defaults(command=cmd_ingest)

    con = subparsers.add_parser("consolidate", help="merge, resolve, archive (gated)")
    con.add_argument("--namespace", "-n", default=None, help="one namespace (default: all)")
    con.add_argument("--dry-run", action="store_true", help="print the plan, write nothing")
    con.add_argument("--force", action="store_true", help="ignore the time and volume gate")
    data_dir_arg(con)
    con.set_defaults(command=cmd_consolidate)

    reb = subparsers.add_parser("rebuild", help="rebuild memories from the log")
    reb.add_argument("--namespace", "-n", required=True)
    data_dir_arg(reb)
    reb.set_defaults(command=cmd_rebuild)

    era = subparsers.add_parser("erase", help="erase turns, a session, memories or a text")
    era.add_argument("--namespace", "-n", required=True)
    era.add_argument("--turn", action="append", default=[], help="a turn's id (repeatable)")
    era.add_argument("--session", default=None, help="every turn of this session")
    era.add_argument("--memory", action="append", default=[], help="a memory's id (repeatable)")
    era.add_argument("--text", default=None, help="everything holding this text")
    era.add_argument("--dry-run", action="store_true", help="print what would go, erase nothing")
    data_dir_arg(era)
    era.set_defaults(command=cmd_erase)


def cmd_ingest(args: argparse.Namespace, settings: Settings) -> int:
    readable(args.source, "source")
    if args.locomo:
        data = json.loads(args.source.read_text(encoding="utf-8"))
        turns = locomo_turns(data, args.conversation)
    else:
        turns = list(jsonl_turns(args.source))
    from hippograph.graph.write import episodes
    from hippograph.jobs.consolidate import write_tools

    # Conflicts anywhere in the file are refused before any chunk is written.
    sent = len(turns)
    turns = episodes.unique_turns(turns)

    def work(rt: Runtime) -> dict[str, Any]:
        tools = write_tools(rt)
        totals: dict[str, Any] = {
            "stored": 0, "duplicates": sent - len(turns), "extracted": 0, "actions": {}
        }  # fmt: skip
        started = time.perf_counter()
        try:
            for start in range(0, len(turns), CHUNK):
                last = start + CHUNK >= len(turns)
                result = episodes.ingest(
                    rt.store, rt.embedder, args.namespace, turns[start : start + CHUNK],
                    policy=rt.policy, config=tools.extraction, flush=args.flush and last,
                )  # fmt: skip
                totals["stored"] += result.stored
                totals["duplicates"] += result.duplicates
                totals["extracted"] += result.extracted_turns
                totals["pending"] = result.pending_turns
                for action, n in result.actions.items():
                    totals["actions"][action] = totals["actions"].get(action, 0) + n
        finally:
            tools.close()
        totals["seconds"] = round(time.perf_counter() - started, 2)
        return totals

    totals = with_runtime(settings, work)
    print(f"ingested {sent} turns into {args.namespace}: {json.dumps(totals)}")
    return 0


def cmd_consolidate(args: argparse.Namespace, settings: Settings) -> int:
    from hippograph.jobs.consolidate import consolidate_now

    report = with_runtime(
        settings,
        lambda rt: consolidate_now(
            rt, namespace=args.namespace, dry_run=args.dry_run, force=args.force
        ),
    )
    print(describe(report))
    for op in report.operations[:50] if report.dry_run else ():
        print(f"  {op.op:9} keep={op.keep} other={op.other}  {op.reason}")
    return 0


def describe(report: ConsolidationReport) -> str:
    if report.skipped and not report.dry_run:
        return f"consolidation not due: {report.skipped} (use --force to run anyway)"
    what = "plan (dry run, nothing written)" if report.dry_run else f"run {report.run_id}"
    errors = f"; {len(report.errors)} failed groups will be retried" if report.errors else ""
    return f"consolidation {what} over {report.scope}: {json.dumps(report.counts)}{errors}"


def cmd_rebuild(args: argparse.Namespace, settings: Settings) -> int:
    from hippograph.jobs.consolidate import rebuild_now

    result = with_runtime(settings, lambda rt: rebuild_now(rt, args.namespace))
    print(f"rebuilt {args.namespace}: {json.dumps(result.__dict__)}")
    return 0


def cmd_erase(args: argparse.Namespace, settings: Settings) -> int:
    from hippograph.graph.write import erasure

    done = with_runtime(
        settings,
        lambda rt: erasure.erase(
            rt.store,
            args.namespace,
            turn_ids=args.turn,
            session_id=args.session,
            memory_ids=args.memory,
            text=args.text,
            dry_run=args.dry_run,
        ),  # fmt: skip
    )
    args.audit_counts = erasure_counts(done)  # the audit line says how many, never what
    print(f"erased from {args.namespace}: {json.dumps(done.__dict__)}")
    return 0


# ---------------------------------------------------------------- input formats


def jsonl_turns(path: Path) -> Iterator[NewTurn]:
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
                yield NewTurn(
                    session_id=str(raw["sessionId"]),
                    turn_index=None if raw.get("turnIndex") is None else int(raw["turnIndex"]),
                    text=str(raw["text"]),
                    speaker=raw.get("speaker"),
                    role=raw.get("role"),
                    timestamp=raw.get("timestamp"),
                    file_paths=tuple(raw.get("filePaths") or ()),
                )
            except (ValueError, KeyError, TypeError) as exc:
                raise InvalidInput(f"line {number}", f"is not a turn: {exc}") from None


def locomo_turns(data: Sequence[dict[str, Any]], conversation: str | int) -> list[NewTurn]:
    """The turns of one LoCoMo conversation (by position or ``sample_id``): one session per
    LoCoMo session, turn index = position in it, time = the session's date; image captions
    are kept as ``[image: ...]``."""
    chosen = next((c for c in data if c.get("sample_id") == conversation), None)
    if chosen is None:
        try:
            chosen = data[int(conversation)]
        except (ValueError, IndexError):
            raise InvalidInput("conversation", f"{conversation!r} is not in the file") from None
    sample = str(chosen.get("sample_id", conversation))
    conv = chosen["conversation"]
    turns = []
    number = 1
    while f"session_{number}" in conv:
        when = datetime.strptime(
            conv[f"session_{number}_date_time"].strip(), "%I:%M %p on %d %B, %Y"
        )
        for index, raw in enumerate(conv[f"session_{number}"]):
            text = raw["text"]
            if raw.get("blip_caption"):
                text = f"{text} [image: {raw['blip_caption']}]"
            turns.append(
                NewTurn(
                    session_id=f"{sample}:session_{number}", turn_index=index, text=text,
                    speaker=raw["speaker"], timestamp=to_iso(when),
                )
            )  # fmt: skip
        number += 1
    return turns


if __name__ == "__main__":  # pragma: no cover
    sys.exit("use the hippograph command")
