"""The cost of recording an agent's run as it works (#42): a step, a tool call, a call's
reported end, at p50/p95/p99 under concurrent writers on the embedded engine.

    python bench/runs.py [--writers 8] [--steps 60] [--warmup 10] [--pause-ms 0] [--json OUT]

Each writer thread records its own run, as an agent does: per round one step (thought, action,
observation), one tool call (arguments, status running) and its end (status, result, duration)
through ``graph.runs.record`` with the service's write policy (validation, privacy filter,
bounds), each one transaction. The first ``--warmup`` rounds of every writer are not counted
(the JVM compiles the engine's write path). ``--pause-ms``: each writer waits a random
0..2x that long before each record, as an agent thinks between its steps (0: back to back, a
closed loop where every writer waits for the others' transactions). Target: a step or a call
under 20 ms at p95 with 8 writers, so agents can log as they go.

Latency on a shared machine is mostly queueing for its cores, so the script also prints what a
record costs in CPU, which the machine's load does not change: the process's CPU time (the
writers' Python threads, and the embedded engine's JVM threads in the same process) over the
records written, and the writers' own share (validation, privacy filter, the driver).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hippograph.graph.runs import record  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.settings import Settings  # noqa: E402

OPS = ("add_step", "add_tool_call", "update_tool_call")
THOUGHT = (
    "The export still fails on the CI runner; the last log shows a timezone offset in the CSV "
    "header, so check how the job's environment sets TZ before rerunning anything."
)
RESULT = {"stdout": "collected 214 items ... 1 failed, 213 passed in 41.2s " * 8, "exit": 1}


def writer(rt: Runtime, ns: str, index: int, rounds: int, warmup: int, pause_s: float,
           times: dict[str, list[float]], cpu: list[float], lock: threading.Lock,
           warm: threading.Barrier) -> None:  # fmt: skip
    flt = rt.policy.content_filter
    run = record.start(rt.store, rt.embedder, ns, f"Fix the flaky export test #{index}",
                       session=f"s{index}", agent="bench", content_filter=flt)  # fmt: skip
    mine: dict[str, list[float]] = {op: [] for op in OPS}
    pace = random.Random(index)

    def think() -> None:
        if pause_s:
            time.sleep(pace.uniform(0, 2 * pause_s))

    own = time.thread_time()
    for i in range(rounds + warmup):
        if i == warmup:  # every writer warmed up: the counted part starts (main's CPU clock)
            warm.wait()
            own = time.thread_time()
        think()
        t0 = time.perf_counter()
        record.add_step(rt.store, ns, run.id, thought=THOUGHT, action=f"inspect log {i}",
                        observation="TZ is unset in the job", content_filter=flt)  # fmt: skip
        t1 = time.perf_counter()
        think()
        t1b = time.perf_counter()
        call = record.add_tool_call(rt.store, ns, run.id, "shell",
                                    arguments={"cmd": "pytest tests/test_export.py -x", "cwd": "/src"},
                                    status="running", content_filter=flt)  # fmt: skip
        t2 = time.perf_counter()
        think()
        t2b = time.perf_counter()
        record.update_tool_call(rt.store, ns, call.id, status="failure", result=RESULT,
                                duration_ms=41_200, error="1 failed", content_filter=flt)  # fmt: skip
        t3 = time.perf_counter()
        if i >= warmup:
            for op, spent in zip(OPS, (t1 - t0, t2 - t1b, t3 - t2b), strict=True):
                mine[op].append(spent * 1000)
    own = time.thread_time() - own
    with lock:
        cpu.append(own)
        for op in OPS:
            times[op] += mine[op]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--steps", type=int, default=60, help="counted rounds per writer")
    parser.add_argument("--warmup", type=int, default=10, help="uncounted rounds per writer")
    parser.add_argument("--pause-ms", type=float, default=0.0, help="mean think time")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    data_dir = Path(tempfile.mkdtemp(prefix="hippograph-runs-"))
    rt = Runtime.open(Settings.from_env({}, data_dir=data_dir), attach=False)
    times: dict[str, list[float]] = {op: [] for op in OPS}
    writers_cpu: list[float] = []
    lock = threading.Lock()
    warm = threading.Barrier(args.writers + 1)
    try:
        started = time.perf_counter()
        threads = [
            threading.Thread(
                target=writer,
                args=(
                    rt,
                    "bench-runs",
                    i,
                    args.steps,
                    args.warmup,
                    args.pause_ms / 1000,
                    times,
                    writers_cpu,
                    lock,
                    warm,
                ),
            )  # fmt: skip
            for i in range(args.writers)
        ]
        for t in threads:
            t.start()
        warm.wait()
        cpu_started = time.process_time()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - started
        process_cpu = time.process_time() - cpu_started
        retries = rt.store.retries.total()
    finally:
        rt.close()
    rows = {}
    print(f"{args.writers} writers x {args.steps} rounds (+{args.warmup} warm-up), think time "
          f"{args.pause_ms:g} ms, {elapsed:.1f} s, {retries} transactions retried")  # fmt: skip
    print(f"{'operation':<18}{'n':>6}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for op in (*OPS, "step or call"):
        values = np.array(times["add_step"] + times["add_tool_call"] if op == "step or call"
                          else times[op])  # fmt: skip
        p50, p95, p99 = (float(np.percentile(values, p)) for p in (50, 95, 99))
        rows[op] = {"n": len(values), "p50": p50, "p95": p95, "p99": p99, "max": values.max()}
        print(f"{op:<18}{len(values):>6}{p50:>9.1f}{p95:>9.1f}{p99:>9.1f}{values.max():>9.1f}")
    counted = args.writers * args.steps * len(OPS)
    per_record = {
        "process": process_cpu / counted * 1000,
        "writers": sum(writers_cpu) / counted * 1000,
    }
    print(f"CPU per counted record: {per_record['process']:.2f} ms (the process), of which the "
          f"writers' threads {per_record['writers']:.2f} ms")  # fmt: skip
    target = rows["step or call"]["p95"] < 20
    print(f"target (step or call < 20 ms at p95 with {args.writers} writers): "
          f"{'met' if target else 'MISSED'}")  # fmt: skip
    if args.json:
        report = {"writers": args.writers, "rows": rows, "cpu_ms": per_record}
        args.json.write_text(json.dumps(report, indent=1, default=float), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
