"""Where a recall spends its time: each named statement's calls and latency, on a kept store.

    python bench/latency.py --memories 100000 --data-dir DIR    # builds and keeps the store
    python bench/recall_steps.py --memories 100000 --data-dir DIR [--queries 100] [--warmup 300]
                                 [--words K] [--cascade default|no-vocabulary]

Runs `recall` in-process (no HTTP, no post-retrieval maintenance) on the store and queries
that bench/latency.py kept in DIR (--words K: the store it built with --words K), and prints
the total p50/p95 and, per statement, calls per recall, p50/p95 per call and milliseconds per
recall, heaviest first; then the slowest recalls' statements. --cascade no-vocabulary times
the cascade without the vocabulary seeds (`recipes.NO_VOCABULARY`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import graph  # noqa: E402
from bench.latency import NAMESPACE, load_state, pct, warmup_texts  # noqa: E402
from bench.profiling import statement_timings  # noqa: E402
from hippograph.graph.recall import retrieval  # noqa: E402
from hippograph.graph.recall.recipes import DEFAULT_CASCADE, NO_VOCABULARY  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402

CASCADES = {"default": DEFAULT_CASCADE, "no-vocabulary": NO_VOCABULARY}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memories", type=int, required=True)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=300, help="untimed recalls first (JIT)")
    parser.add_argument("--words", type=int, default=0, help="the store's --words K")
    parser.add_argument("--cascade", choices=sorted(CASCADES), default="default")
    graph.add_arguments(parser)
    args = parser.parse_args()
    words = f"-words{args.words}" if args.words else ""
    state = args.data_dir / f"bench-state-{args.memories}{words}.npz"
    if not state.exists():
        raise SystemExit(f"no kept store in {args.data_dir}: run bench/latency.py first")
    queries = load_state(state)[3][: args.queries]
    timings = statement_timings()
    cascade = CASCADES[args.cascade]
    rt = Runtime.open(graph.settings(args, data_dir=args.data_dir), attach=False)
    try:
        warmups = warmup_texts(queries)
        for n in range(args.warmup):
            context = warmups[n % len(warmups)]
            retrieval.recall(
                rt.store, rt.embedder, NAMESPACE, retrieval.RecallRequest(context=context), cascade
            )
        timings.clear()
        totals = []
        spent: list[dict[str, float]] = []  # per recall: statement -> ms
        for q in queries:
            marks = {k: len(v) for k, v in timings.items()}
            started = time.perf_counter()
            result = retrieval.recall(
                rt.store, rt.embedder, NAMESPACE, retrieval.RecallRequest(context=q), cascade
            )
            totals.append((time.perf_counter() - started) * 1000)
            spent.append(
                {
                    "query embedding": result.embed_ms,
                    **{
                        k: 1000 * sum(v[marks.get(k, 0) :])
                        for k, v in timings.items()
                        if len(v) > marks.get(k, 0)
                    },
                }
            )
    finally:
        rt.close()
    n = len(totals)
    print(
        f"\nrecall in-process over {n} queries on {args.memories} memories: "
        f"p50 {statistics.median(totals):.1f} ms, p95 {pct(totals, 95):.1f} ms, "
        f"p99 {pct(totals, 99):.1f} ms"
    )
    print(f"{'statement':<36} {'calls':>5} {'p50 ms':>7} {'p95 ms':>7} {'ms/recall':>9}")
    for name, seconds in sorted(timings.items(), key=lambda kv: -sum(kv[1])):
        values = [1000 * s for s in seconds]
        print(
            f"{name:<36} {len(values) / n:>5.1f} {statistics.median(values):>7.1f} "
            f"{pct(values, 95):>7.1f} {sum(values) / n:>9.1f}"
        )
    print("the slowest recalls, statement by statement (ms):")
    for i in sorted(range(n), key=lambda i: -totals[i])[:3]:
        steps = ", ".join(f"{k.removeprefix('read ')} {ms:.0f}" for k, ms in spent[i].items())
        print(f"  {totals[i]:.0f} ms: {steps}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
