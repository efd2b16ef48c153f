"""Where the time of recording a run goes (#42): one writer, the records of ``bench/runs.py``
(a step, a tool call, the call's end), each split by where its CPU is spent.

    python bench/runs_profile.py [--rounds 200] [--warmup 50] [--steps-before 0] [--runs-before 0]

Per record: the wall time; the writer thread's CPU outside the store (validation, the privacy
filter, bounds) and inside it (the neo4j driver: packing, Bolt round trips, unpacking); the
rest of the process's CPU meanwhile (the embedded engine's Bolt threads, the statement, the
commit, the JVM's GC and compiler); and the same statement run alone in the engine, in one
transaction, without Bolt (through its Java API: the JVM work then runs on the calling thread,
whose CPU time is what it costs). CPU figures hold on a loaded machine; wall times do not.
``--steps-before`` records that many steps first: the cost of a record as its run grows;
``--runs-before``, that many other runs of one step and one call: as the namespace's runs do.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.runs import OPS, RESULT, THOUGHT  # noqa: E402
from hippograph.graph.runs import record  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.graph.store.store import Store, statement  # noqa: E402
from hippograph.settings import Settings  # noqa: E402

PARTS = ("wall", "policy", "driver", "engine side", "statement alone")


class Tapped:
    """``store.write`` of one store, tapped: the statement each record sent, and the writer
    thread's CPU spent inside it."""

    def __init__(self, store: Store) -> None:
        self.write = store.write
        self.sent: tuple[str, dict[str, Any]] = ("", {})
        self.cpu = 0.0
        store.write = self  # type: ignore[method-assign]

    def __call__(self, name: str, /, **params: Any) -> list[dict[str, Any]]:
        started = time.thread_time()
        try:
            return self.write(name, **params)
        finally:
            self.cpu += time.thread_time() - started
            self.sent = (name, params)


def alone(rt: Runtime, name: str, params: dict[str, Any]) -> float:
    """CPU seconds of the statement ``name`` run again in the engine, without Bolt (a new call
    id: ids are unique)."""
    assert rt.store.engine is not None, "the profile needs the embedded engine"
    if "id" in params and name == "run/add_tool_call":
        params = {**params, "id": str(uuid.uuid4())}
    text, values = statement(rt.store.dialect, name, params)
    db = rt.store.engine._db  # the engine's Java database: a diagnostic path, as run_sql is
    started = time.thread_time()
    db.begin()
    rows = list(db.command("opencypher", text, values))
    db.commit()
    spent = time.thread_time() - started
    assert len(rows) == 1, f"{name} wrote {len(rows)} rows"
    return spent


def measure(
    rt: Runtime, tap: Tapped, op: Callable[..., Any], *args: Any, **kwargs: Any
) -> tuple[Any, dict[str, float]]:
    """``op(*args, **kwargs)``, what it returned and where its time went (seconds)."""
    tap.cpu = 0.0
    wall, own, process = time.perf_counter(), time.thread_time(), time.process_time()
    made = op(*args, **kwargs)
    wall, own = time.perf_counter() - wall, time.thread_time() - own
    process = time.process_time() - process
    return made, {
        "wall": wall, "policy": own - tap.cpu, "driver": tap.cpu, "engine side": process - own,
        "statement alone": alone(rt, *tap.sent),
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--steps-before", type=int, default=0)
    parser.add_argument("--runs-before", type=int, default=0)
    args = parser.parse_args()

    data_dir = Path(tempfile.mkdtemp(prefix="hippograph-runs-profile-"))
    rt = Runtime.open(Settings.from_env({}, data_dir=data_dir), attach=False)
    ns, flt = "bench-runs", rt.policy.content_filter
    parts: dict[str, dict[str, list[float]]] = {op: {p: [] for p in PARTS} for op in OPS}
    try:
        for i in range(args.runs_before):
            other = record.start(rt.store, rt.embedder, ns, f"Earlier task {i}")
            record.add_step(rt.store, ns, other.id, action="look")
            record.add_tool_call(rt.store, ns, other.id, "shell", arguments={"cmd": "ls"})
        run = record.start(rt.store, rt.embedder, ns, "Fix the flaky export test",
                           session="s", agent="bench", content_filter=flt)  # fmt: skip
        for i in range(args.steps_before):
            record.add_step(rt.store, ns, run.id, action=f"earlier step {i}")
        tap = Tapped(rt.store)
        for i in range(args.warmup + args.rounds):
            _, step = measure(rt, tap, record.add_step, rt.store, ns, run.id, thought=THOUGHT,
                              action=f"inspect log {i}", observation="TZ is unset in the job",
                              content_filter=flt)  # fmt: skip
            call, called = measure(rt, tap, record.add_tool_call, rt.store, ns, run.id, "shell",
                                   arguments={"cmd": "pytest tests/test_export.py -x",
                                              "cwd": "/src"},
                                   status="running", content_filter=flt)  # fmt: skip
            _, ended = measure(rt, tap, record.update_tool_call, rt.store, ns, call.id,
                               status="failure", result=RESULT, duration_ms=41_200,
                               error="1 failed", content_filter=flt)  # fmt: skip
            if i >= args.warmup:
                for op, spent in zip(OPS, (step, called, ended), strict=True):
                    for part in PARTS:
                        parts[op][part].append(spent[part] * 1000)
    finally:
        rt.close()
    print(f"one writer, {args.rounds} rounds (+{args.warmup} warm-up), {args.runs_before} runs "
          f"before, a run of {args.steps_before} + {2 * (args.warmup + args.rounds)} steps at "
          "the end; median ms per record")  # fmt: skip
    print(f"{'operation':<18}" + "".join(f"{p:>17}" for p in PARTS))
    for op in OPS:
        print(f"{op:<18}" + "".join(f"{np.median(parts[op][p]):>17.3f}" for p in PARTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
