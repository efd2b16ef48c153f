"""``hippograph worker`` and ``hippograph jobs run|list``: the maintenance jobs from the shell.

Both attach over Bolt to the embedded engine of a running ``serve`` (or connect to Neo4j); with
no server running they start the engine themselves, which then holds the data directory.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from types import FrameType
from typing import TYPE_CHECKING, Any

from hippograph.api.cli_common import data_dir_arg
from hippograph.graph.model import parse_iso
from hippograph.jobs.names import JOB_NAMES
from hippograph.settings import Settings

if TYPE_CHECKING:
    from hippograph.graph.store.store import Store
    from hippograph.graph.upkeep.jobruns import JobRun
    from hippograph.jobs.runner import Progress


def register(sub: Any) -> None:
    """Add ``worker`` and ``jobs`` to the subparsers of ``hippograph.api.cli``."""
    worker = sub.add_parser("worker", help="run the maintenance jobs on their schedules")
    worker.add_argument("--once", action="store_true", help="run the jobs due now, then exit")
    data_dir_arg(worker)
    worker.set_defaults(command=cmd_worker)

    jobs = sub.add_parser("jobs", help="run one maintenance job now, or list recent runs")
    jobs_sub = jobs.add_subparsers(required=True, metavar="ACTION")
    run = jobs_sub.add_parser("run", help="run a job now and wait for it")
    run.add_argument("name", choices=JOB_NAMES)
    run.add_argument("--namespace", "-n", default=None, help="one namespace (default: all)")
    run.add_argument(
        "--force", action="store_true", help="take the job's lock over from a live holder"
    )
    data_dir_arg(run)
    run.set_defaults(command=cmd_jobs_run)
    listing = jobs_sub.add_parser("list", help="recent runs, newest first")
    listing.add_argument("name", nargs="?", choices=JOB_NAMES)
    listing.add_argument("--first", type=int, default=20)
    data_dir_arg(listing)
    listing.set_defaults(command=cmd_jobs_list)


def _open(settings: Settings) -> Store:
    from hippograph.graph.store.store import Store

    store = Store.open(settings, attach=True)
    if store.engine is not None:
        print(
            f"hippograph: no server holds {settings.graph.data_dir.resolve()}, so this process "
            "started the embedded engine; `serve` cannot use that directory until it exits",
            file=sys.stderr,
        )
    return store


def cmd_jobs_run(args: argparse.Namespace, settings: Settings) -> int:
    from tqdm import tqdm

    from hippograph.jobs import registry
    from hippograph.jobs.config import JobsConfig
    from hippograph.jobs.runner import RunOptions

    store = _open(settings)
    try:
        with tqdm(desc=args.name, unit=" rows", file=sys.stderr) as bar:
            options = RunOptions(
                trigger="cli",
                force=args.force,
                namespace=args.namespace,
                on_progress=_bar_progress(bar),
            )
            run = registry.run_job(store, args.name, JobsConfig.from_settings(settings), options)
    finally:
        store.close()
    print(describe(run))
    return 0 if run.status == "succeeded" else 1


def cmd_jobs_list(args: argparse.Namespace, settings: Settings) -> int:
    from hippograph.graph.upkeep import jobruns

    store = _open(settings)
    try:
        runs = jobruns.list_runs(store, args.name, args.first)
    finally:
        store.close()
    if not runs:
        print("no job runs recorded")
    for run in runs:
        print(describe(run))
    return 0


def cmd_worker(args: argparse.Namespace, settings: Settings) -> int:
    from hippograph.jobs.config import JobsConfig
    from hippograph.jobs.worker import Worker

    config = JobsConfig.from_settings(settings)
    worker = Worker(
        open_store=lambda: _open(settings),
        config=config,
        on_run=lambda run: print(describe(run), flush=True),
        on_progress=lambda name: _log_progress(name),
    )
    _stop_on_signals(worker.stop)
    enabled = [n for n in JOB_NAMES if config.interval(n) > 0]
    where = settings.graph.uri or f"embedded engine of {settings.graph.data_dir.resolve()}"
    print(f"hippograph worker: {', '.join(enabled)} on {where}; Ctrl-C stops", flush=True)
    if args.once:
        try:
            worker.run_due()
        finally:
            worker.close()
    else:
        worker.run_forever()
    return 0


def describe(run: JobRun) -> str:
    took = ""
    if run.ended_at:
        took = f" in {(parse_iso(run.ended_at) - parse_iso(run.started_at)).total_seconds():.1f}s"
    error = f" error: {run.error}" if run.error else ""
    counts = json.dumps(dict(run.counts), sort_keys=True)
    return f"{run.name} {run.status}{took} ({run.done}/{run.total}) {counts} run {run.id}{error}"


def _bar_progress(bar: Any) -> Progress:
    def update(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    return update


def _log_progress(name: str) -> Progress:
    last = [-1]

    def update(done: int, total: int) -> None:
        step = max(1, total // 10)
        if total and (done // step != last[0] or done == total):
            last[0] = done // step
            print(f"  {name}: {done}/{total}", file=sys.stderr, flush=True)

    return update


def _stop_on_signals(stop: threading.Event) -> None:
    """First SIGINT/SIGTERM: finish the current batch and stop. A second SIGINT: abort now."""

    def handler(signum: int, frame: FrameType | None) -> None:
        if stop.is_set() and signum == signal.SIGINT:
            raise KeyboardInterrupt
        print("hippograph worker: stopping after the current batch", file=sys.stderr)
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, handler)
