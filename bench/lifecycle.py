"""The lifecycle benchmark: LoCoMo evidence recall of a store that has aged, beside a fresh one.

    .venv/bin/python bench/lifecycle.py --data ../shared/data/locomo/locomo-dev.json
        [--json OUT] [--limit-conversations N] [--days 90] [--skip-job NAME ...]
        [--data-dir DIR]

Per conversation, two namespaces of one embedded store:

- fresh: the conversation stored as ``bench/locomo.py`` stores it (one memory per turn,
  consecutive turns linked), every question asked once through ``recall`` (k=10);
- aged: the sessions in date order with the service clock (``graph.clock``) at each session's
  date (``bench/aging.py``). Between two sessions the worker's jobs (decay, edges, pagerank,
  cluster, consolidate, vocabulary) run as their default schedules would have over that span;
  then the clock moves ``--days`` past the last session and they run over that span too. Every question
  is then asked three times through the real recall path (``retrieval.recall`` with the
  runtime's cascade, limits and verifier, then ``Runtime.after_recall``: the upkeep of one pass
  is written before the next), and the third pass is scored.

The schedule over a span: each job runs at its first due tick in the span (the scheduler's
``Due.at`` from its last JobRun, or the span's start when overdue) and at its last tick before
the span ends. The ticks between are not run: between sessions nothing is written or used, and
decay, edge aging and consolidation's gate and grace period are functions of the stored inputs
and the clock, so the last tick leaves what all of them would have (consolidation every 10
minutes over a month is 4,000 runs that find nothing new).

Printed: evidence recall@5 and @10 per category, fresh and aged; the aged store's active,
superseded, merged and archived memories, and its gold evidence turns that no active memory
holds any more (``unreachable``). ``--json`` writes the ``bench/locomo.py`` layout (its
``recall@10`` and ``recall@5`` are the aged store's) plus ``{"fresh": {...}, "aged": {...},
"counts": {...}}``. ``--skip-job NAME``: leave a job out (which lifecycle rule costs recall).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import (  # noqa: E402
    aging,
    graph,  # noqa: E402
    locomo,
)
from bench import locomo_data as data  # noqa: E402
from hippograph.graph import clock, transfer  # noqa: E402
from hippograph.graph.recall import retrieval  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.jobs import registry, scheduler  # noqa: E402
from hippograph.jobs.config import JobsConfig  # noqa: E402
from hippograph.jobs.runner import RunOptions  # noqa: E402

JOBS = ("decay", "edges", "pagerank", "cluster", "consolidate", "vocabulary")
PASSES = 3
COUNTS = ("active", "superseded", "merged", "archived", "unreachable")


def run_jobs(
    rt: Runtime, jobs: JobsConfig, namespace: str, start: datetime, end: datetime
) -> Counter[str]:
    """The jobs' scheduled runs in ``[start, end)`` (see the module docstring); runs by job."""
    runs: list[tuple[datetime, str]] = []
    for due in scheduler.schedule(rt.store, jobs, start, namespace=namespace):
        if due.name not in JOBS or due.at >= end:
            continue
        first = max(due.at, start)
        step = timedelta(seconds=jobs.interval(due.name))
        last = first + step * ((end - first - timedelta(microseconds=1)) // step)
        runs.extend([(first, due.name)] + ([(last, due.name)] if last > first else []))
    done: Counter[str] = Counter()
    for at, name in sorted(runs):
        clock.set_now(at)
        registry.run_job(rt.store, name, jobs, RunOptions(namespace=namespace, trigger="bench"))
        done[name] += 1
    clock.set_now(end)
    return done


def age(
    rt: Runtime, jobs: JobsConfig, conv: data.Conversation, namespace: str, days: float
) -> Counter[str]:
    """Ingest ``conv`` session by session with the jobs between, then age it ``days``."""
    runs: Counter[str] = Counter()
    previous: list[datetime] = []

    def between(at: datetime) -> None:
        if previous:
            runs.update(run_jobs(rt, jobs, namespace, previous[0], at))
        previous[:] = [at]

    aging.ingest(rt, conv, namespace, before_session=between)
    last = max(t.time for t in conv.turns).replace(tzinfo=UTC)
    runs.update(run_jobs(rt, jobs, namespace, previous[0], last + timedelta(days=days)))
    return runs


def ask(
    rt: Runtime, conv: data.Conversation, namespace: str, table: data.RecallTable, *, upkeep: bool
) -> None:
    """Every question through ``recall`` as the API asks it; ``upkeep``: and its maintenance,
    written before this returns."""
    for q in conv.questions:
        request = retrieval.RecallRequest(context=q.question, k=locomo.K, include_gap=True)
        result = retrieval.recall(
            rt.store, rt.embedder, namespace, request, config=rt.cascade, services=rt.services
        )
        table.add(q, locomo.turns_of(result))
        if upkeep:
            rt.after_recall(namespace, q.question, result)
    if upkeep:
        rt.settle()


def counts(rt: Runtime, conv: data.Conversation, namespace: str) -> Counter[str]:
    """Memories by lifecycle state, and the gold evidence turns no active memory holds."""
    out: Counter[str] = Counter({name: 0 for name in COUNTS})
    held: set[str] = set()
    for row in transfer.export_lines(rt.store, namespace):
        if row["kind"] != "memory":
            continue
        p = row["props"]
        if p["status"] == "active":
            held.add(p.get("source_messages") or "")
        state = "merged" if p["status"] == "archived" and p.get("merged_into") else p["status"]
        out[state] += 1
    evidence = {e for q in conv.questions for e in q.evidence}
    turns = {t.dia_id for t in conv.turns}
    out["unreachable"] = len({e for e in evidence & turns if e not in held})
    return out


def report(name: str, tables: dict[str, data.RecallTable], names: dict[int, str]) -> None:
    print(f"\n{name:<6} {'@':>2} {data.table_header(names)}")
    for label, table in tables.items():
        for k in (5, 10):
            print(f"{label:<6} {k:>2} {table.row(k)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, required=True, help="LoCoMo JSON file")
    parser.add_argument("--json", type=Path, help="write the numbers here")
    parser.add_argument("--limit-conversations", type=int, help="only the first N")
    parser.add_argument("--days", type=float, default=90.0, help="aged past the last session")
    parser.add_argument("--skip-job", choices=JOBS, action="append", default=[])
    parser.add_argument("--data-dir", type=Path, help="embedded store (default: a temp dir)")
    graph.add_arguments(parser)
    args = parser.parse_args(argv)
    conversations = data.load(args.data)[: args.limit_conversations]
    names = data.category_names(conversations)
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="hippograph-lifecycle-"))
    rt = Runtime.open(graph.settings(args, data_dir=data_dir), attach=False)
    jobs = JobsConfig.from_settings(rt.settings)
    if args.skip_job:
        skipped = {f"job_{name}_interval_s": 0.0 for name in args.skip_job}
        jobs = replace(jobs, settings=jobs.settings.with_(**skipped))
    tables = {label: data.RecallTable(names=names) for label in ("fresh", "aged")}
    total: Counter[str] = Counter({name: 0 for name in COUNTS})
    run_id = time.strftime("%Y%m%d%H%M%S")
    try:
        for n, conv in enumerate(conversations, start=1):
            started = time.perf_counter()
            fresh = f"lifecycle-fresh-{conv.sample_id}-{run_id}"
            clock.set_now(None)
            locomo.load(rt, conv, fresh)
            ask(rt, conv, fresh, tables["fresh"], upkeep=False)
            print(f"[{n}/{len(conversations)}] {conv.sample_id}: fresh store asked "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)  # fmt: skip
            aged = f"lifecycle-aged-{conv.sample_id}-{run_id}"
            runs = age(rt, jobs, conv, aged, args.days)
            print(f"[{n}/{len(conversations)}] {conv.sample_id}: aged "
                  f"{len({t.session for t in conv.turns})} sessions + {args.days:g} days, job runs "
                  f"{dict(sorted(runs.items()))} ({time.perf_counter() - started:.0f} s)",
                  flush=True)  # fmt: skip
            for number in range(1, PASSES + 1):
                table = tables["aged"] if number == PASSES else data.RecallTable(names=names)
                ask(rt, conv, aged, table, upkeep=True)
            found = counts(rt, conv, aged)
            total.update(found)
            print(f"[{n}/{len(conversations)}] {conv.sample_id}: {PASSES} passes asked; "
                  + ", ".join(f"{k} {found[k]}" for k in COUNTS)
                  + f" ({time.perf_counter() - started:.0f} s)", flush=True)  # fmt: skip
    finally:
        clock.set_now(None)
        rt.close()
    questions = tables["aged"].count()
    print(f"\nLifecycle {args.data.name}: {len(conversations)} conversations, {questions} "
          f"questions, k={locomo.K}, aged {args.days:g} days past the last session, pass {PASSES}"
          + (f", skipped jobs: {', '.join(args.skip_job)}" if args.skip_job else ""))  # fmt: skip
    print(data.category_legend(names))
    report("store", tables, names)
    print("\naged store: " + ", ".join(f"{k} {total[k]}" for k in COUNTS))
    if args.json:
        figures = {
            label: {f"recall@{k}": locomo.summary(table, k) for k in (10, 5)}
            for label, table in tables.items()
        }
        out = {
            **figures["aged"],
            "questions": questions,
            "categories": {str(c): n for c, n in names.items()},
            "fresh": figures["fresh"],
            "aged": figures["aged"],
            "counts": {k: total[k] for k in COUNTS},
            "skipped_jobs": args.skip_job,
        }
        args.json.write_text(json.dumps(out, indent=2))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
