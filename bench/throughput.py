"""Cold start and write throughput (issue: foundation).

    python bench/throughput.py [--batch 1000] [--repeat 3] [--json OUT] [--profile]

1. Cold start: runs `hippograph serve` on a fresh data directory as a separate process and
   times from launch to the first answered GraphQL query (engine start, model load, schema).
2. Writes: `remember` of a batch of N short memories through the library, next to the raw
   embedding throughput of the same model on texts of the same shape in the same run (the
   physical limit of the write path on this machine); --repeat rounds, each round's ratio of the
   two (measured back to back) and their median reported.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.profiling import print_timings, statement_timings  # noqa: E402
from hippograph.graph import memories  # noqa: E402
from hippograph.graph.model import NewMemory  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.settings import Settings  # noqa: E402

QUERY = '{ search(namespace: "cold", query: "hello", k: 1) { score } }'


def cold_start() -> float:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data_dir = tempfile.mkdtemp(prefix="hippograph-cold-")
    exe = Path(sys.executable).parent / "hippograph"
    env = {**os.environ, "HIPPOGRAPH_DATA_DIR": data_dir, "HIPPOGRAPH_PORT": str(port)}
    started = time.perf_counter()
    proc = subprocess.Popen(
        [str(exe), "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"hippograph serve exited with {proc.returncode}")
            try:
                r = httpx.post(f"http://127.0.0.1:{port}/graphql", json={"query": QUERY}, timeout=5)
                if r.status_code == 200 and "data" in r.json():
                    return time.perf_counter() - started
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def texts(n: int, salt: str) -> list[str]:
    people = ["Ana", "Ben", "Chloe", "Dev", "Eli", "Fay", "Gus", "Hana"]
    things = ["tea", "jazz", "chess", "hiking", "sushi", "Python", "cycling", "poetry"]
    return [f"{people[i % 8]} enjoys {things[(i // 8) % 8]} on day {i} ({salt})" for i in range(n)]


def writes(batch: int, repeat: int, *, profile: bool = False) -> tuple[list[float], list[float]]:
    """Per round: the raw embedding rate on fresh texts, then `remember` of a batch of fresh
    texts into a namespace of its own (rates vary by a fifth from one batch to the next on 2
    cores, so the rounds' medians are reported)."""
    rt = Runtime.open(
        Settings.from_env({}, data_dir=Path(tempfile.mkdtemp(prefix="hippograph-w-"))), attach=False
    )
    embed_rates, write_rates = [], []
    try:
        rt.embedder.embed(texts(64, "warm-up"))
        for n in range(repeat):
            sample = texts(batch, f"embed {n}")
            t = time.perf_counter()
            rt.embedder.embed(sample)
            embed_rates.append(batch / (time.perf_counter() - t))
            items = [NewMemory(content=c) for c in texts(batch, f"write {n}")]
            timings = statement_timings() if profile else None
            t = time.perf_counter()
            results = memories.remember(
                rt.store, rt.embedder, f"bench-{n}", items, policy=rt.policy
            )
            write_rates.append(batch / (time.perf_counter() - t))
            assert sum(r.created for r in results) == batch, "every memory must be stored"
            print(
                f"round {n + 1}: embedding {embed_rates[-1]:.0f} texts/s, "
                f"remember {write_rates[-1]:.0f} memories/s"
            )
            if timings is not None:
                print_timings(timings)
    finally:
        rt.close()
    return embed_rates, write_rates


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3, help="rounds (medians are reported)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--profile", action="store_true", help="time each statement of the batch")
    parser.add_argument("--no-cold-start", action="store_true", help="only the write throughput")
    args = parser.parse_args()
    cold = None if args.no_cold_start else cold_start()
    if cold is not None:
        print(f"cold start to the first answered query: {cold:.1f} s")
    embed_rates, write_rates = writes(args.batch, args.repeat, profile=args.profile)
    embed_rate, write_rate = statistics.median(embed_rates), statistics.median(write_rates)
    # Each round's remember rate against the embedding rate measured just before it: this
    # machine's speed drifts by a fifth within minutes, so rounds are compared pairwise.
    ratios = [w / e for w, e in zip(write_rates, embed_rates, strict=True)]
    ratio = statistics.median(ratios)
    print(f"raw embedding throughput (median of {args.repeat}): {embed_rate:.0f} texts/s")
    print(
        f"remember throughput (batches of {args.batch}, median of {args.repeat}): "
        f"{write_rate:.0f} memories/s"
    )
    print(
        f"remember / embedding, round by round: {', '.join(f'{100 * r:.0f}%' for r in ratios)}; "
        f"median {100 * ratio:.0f}% of the embedding limit"
    )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "cold_start_s": None if cold is None else round(cold, 2),
                    "embed_per_s": round(embed_rate, 1),
                    "remember_per_s": round(write_rate, 1),
                    "batch": args.batch,
                    "ratio_median": round(ratio, 3),
                    "rounds": {
                        "embed_per_s": embed_rates,
                        "remember_per_s": write_rates,
                        "ratio": ratios,
                    },
                },
                indent=2,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
