"""The first recalls of a freshly started process, with and without the start-up warm-up.

    python bench/first_recall.py [--memories 2000] [--repeat 3] [--data-dir DIR]

Builds N memories once (bench/latency.py's generator) in an embedded store, then, --repeat
times for each mode, starts a new process that opens the runtime as `serve` does (a new JVM,
a new driver, a new model session), runs the warm-up (`graph/recall/warmup.py`) or not, and
times its first three recalls in-process. Prints the warm-up time and each recall's time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.latency import NAMESPACE, build, sentences  # noqa: E402
from hippograph.graph.recall import retrieval, warmup  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.settings import Settings  # noqa: E402

CONTEXTS = 3


def child(data_dir: Path, warm: bool) -> dict[str, object]:
    """One fresh process: open, maybe warm, time the first recalls."""
    rt = Runtime.open(Settings.from_env(data_dir=data_dir), attach=False)
    try:
        warm_s = (
            warmup.warm(rt.store, rt.embedder, config=rt.cascade, services=rt.services)
            if warm
            else 0.0
        )
        texts = sentences(CONTEXTS, random.Random(11))
        times = []
        for text in texts:
            started = time.perf_counter()
            result = retrieval.recall(
                rt.store,
                rt.embedder,
                NAMESPACE,
                retrieval.RecallRequest(context=text, k=10),
                rt.cascade,
                services=rt.services,
            )
            times.append((time.perf_counter() - started) * 1000)
            assert result.items, "the store should answer every context"
        return {"warm": warm, "warmup_s": warm_s, "recall_ms": times}
    finally:
        rt.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--child", choices=["cold", "warm"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="first-recall-")) / "data"
    if args.child:
        print(json.dumps(child(data_dir, args.child == "warm")))
        return 0
    if not (data_dir / "engine.json").exists() and not (data_dir / "arcadedb").exists():
        rt = Runtime.open(Settings.from_env(data_dir=data_dir), attach=False)
        try:
            build(rt, args.memories, random.Random(3))
            rt.settle()
        finally:
            rt.close()
    runs: dict[str, list[dict[str, object]]] = {"cold": [], "warm": []}
    for _ in range(args.repeat):
        for mode in ("cold", "warm"):
            out = subprocess.run(
                [sys.executable, __file__, "--data-dir", str(data_dir), "--child", mode],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            run = json.loads(out.strip().splitlines()[-1])
            runs[mode].append(run)
            ms = ", ".join(f"{t:.0f}" for t in run["recall_ms"])  # type: ignore[attr-defined]
            print(f"{mode}: warm-up {run['warmup_s']:.2f} s, first recalls {ms} ms", flush=True)
    for mode, done in runs.items():
        first = [r["recall_ms"][0] for r in done]  # type: ignore[index]
        print(f"{mode}: first recall median {statistics.median(first):.0f} ms over {len(first)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
