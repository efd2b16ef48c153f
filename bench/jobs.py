"""How long does each maintenance job take at scale? One command:

    python bench/jobs.py [--memories 100000] [--edges 500000]

Starts a fresh embedded engine in a temporary directory (or in --data-dir, kept for the next
run, which then skips the build and runs the jobs on what earlier runs left), installs the
schema, writes the memories (random unit 384-d vectors around topic centres, mixed types,
ages and confidences) and RELATES_TO edges (random pairs, random ages and confidences) with
batched UNWIND statements, then runs each job once on the whole graph and prints a table of wall times and
counts. Jobs run in the worker's order: pagerank, edges, decay, cluster.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import graph  # noqa: E402
from bench.profiling import print_timings, statement_timings  # noqa: E402
from hippograph.graph.model import MEMORY_TYPES, to_iso  # noqa: E402
from hippograph.graph.store.store import Store  # noqa: E402
from hippograph.graph.text import fulltext  # noqa: E402
from hippograph.jobs import registry  # noqa: E402
from hippograph.jobs.config import JOB_NAMES, JobsConfig  # noqa: E402
from hippograph.jobs.runner import RunOptions  # noqa: E402
from hippograph.settings import JobSettings, Settings  # noqa: E402

NAMESPACE = "bench"
DIM = 384
PROVENANCES = ("user_stated", "observed", "extracted", "inferred")


def build(store: Store, memories: int, edges: int, seed: int, batch: int) -> list[str]:
    rng = np.random.default_rng(seed)
    now = datetime.now(UTC)
    centres = rng.standard_normal((max(1, memories // 500), DIM)).astype(np.float32)
    ids = [str(uuid.uuid4()) for _ in range(memories)]
    with tqdm(total=memories, desc="memories", unit=" nodes", file=sys.stderr) as bar:
        for start in range(0, memories, batch):
            rows = [
                _memory(ids[i], rng, centres, now)
                for i in range(start, min(memories, start + batch))
            ]
            store.write("memory/create", rows=rows)
            bar.update(len(rows))
    with tqdm(total=edges, desc="edges", unit=" edges", file=sys.stderr) as bar:
        for start in range(0, edges, batch):
            size = min(batch, edges - start)
            src = rng.integers(0, memories, size)
            dst = (src + rng.integers(1, memories, size)) % memories
            rows = [
                {"from_id": ids[s], "to_key": ids[d], "props": _edge(rng, now)}
                for s, d in zip(src.tolist(), dst.tolist(), strict=True)
            ]
            store.write("import/edge_relates_to", rows=rows)
            bar.update(size)
    return ids


def _memory(
    memory_id: str, rng: np.random.Generator, centres: np.ndarray[Any, Any], now: datetime
) -> dict[str, Any]:
    vector = centres[rng.integers(len(centres))] + 0.05 * rng.standard_normal(DIM)
    vector /= np.linalg.norm(vector)
    created = to_iso(now - timedelta(days=float(rng.uniform(0, 365))))
    confidence = float(rng.uniform(0.2, 1.0))
    content = f"synthetic memory {memory_id[:8]} about topic {int(rng.integers(1000))}"
    return {
        "id": memory_id,
        "namespace": NAMESPACE,
        "content": content,
        "ft_terms": fulltext.indexed(NAMESPACE, content),
        "content_hash": memory_id,
        "memory_type": MEMORY_TYPES[int(rng.integers(len(MEMORY_TYPES)))],
        "scope": "global",
        "provenance": PROVENANCES[int(rng.integers(len(PROVENANCES)))],
        "status": "active",
        "created_at": created,
        "updated_at": created,
        "access_count": int(rng.integers(0, 20)),
        "strength": int(rng.integers(1, 3)),
        "confidence": confidence,
        "initial_confidence": confidence,
        "trust_score": 1.0,
        "embedding": vector.astype(np.float32).tolist(),
    }


def _edge(rng: np.random.Generator, now: datetime) -> dict[str, Any]:
    stamp = to_iso(now - timedelta(days=float(rng.uniform(0, 120))))
    return {
        "weight": float(rng.uniform(0.1, 1.0)),
        "confidence": float(rng.uniform(0.1, 1.0)),
        "created_at": stamp,
        "last_reinforced_at": stamp,
        "kind": "bench",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--edges", type=int, default=500_000)
    parser.add_argument(
        "--batch",
        type=int,
        default=1000,
        help="rows per write transaction while building (ArcadeDB 26.x misreads Bolt messages of 5,000 embedded rows)",
    )
    parser.add_argument(
        "--job-batch",
        type=int,
        default=JobSettings.batch_size,
        help="rows per job write transaction (default: the service's HIPPOGRAPH_JOB_BATCH_SIZE)",
    )
    parser.add_argument("--jobs", nargs="*", default=list(JOB_NAMES), choices=JOB_NAMES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--heap", default="4g", help="JVM heap of the embedded engine")
    parser.add_argument(
        "--data-dir",
        type=Path,
        help="keep the built store here and reuse it on the next run (default: a temporary one)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="also print, per job, the time spent in each named statement and transaction",
    )
    graph.add_arguments(parser)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    with contextlib.ExitStack() as stack:
        if args.data_dir is None:
            data_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="hg-jobs-")))
        else:
            data_dir = args.data_dir
        marker = data_dir / f"bench-jobs-{args.memories}-{args.edges}-{args.seed}.built"
        settings = graph.settings(args, data_dir=data_dir, engine_heap=args.heap)
        store = Store.open(settings, attach=False)
        try:
            store.install_schema(dimensions=DIM)
            if marker.exists():
                print(f"reusing the store kept in {data_dir} (earlier runs changed it)", flush=True)
            else:
                started = time.perf_counter()
                build(store, args.memories, args.edges, args.seed, args.batch)
                marker.touch()
                print(
                    f"built {args.memories:,} memories + {args.edges:,} edges in "
                    f"{time.perf_counter() - started:.1f}s",
                    flush=True,
                )
            config = JobsConfig(settings=Settings().with_(job_batch_size=args.job_batch))
            timings = statement_timings() if args.profile else None
            rows = []
            for name in args.jobs:
                print(f"running {name} ...", flush=True)
                with tqdm(desc=name, file=sys.stderr) as bar:

                    def show(done: int, total: int, bar: Any = bar) -> None:
                        bar.total, bar.n = total, done
                        bar.refresh()

                    t = time.perf_counter()
                    run = registry.run_job(
                        store, name, config, RunOptions(trigger="bench", on_progress=show)
                    )
                    rows.append((name, time.perf_counter() - t, run.status, dict(run.counts)))
                print(f"{name}: {rows[-1][1]:.1f}s {rows[-1][2]} {rows[-1][3]}", flush=True)
                if timings is not None:
                    print_timings(timings)
        finally:
            store.close()
    print(f"\n{'job':<10} {'seconds':>8}  {'status':<10} counts")
    for name, seconds, status, counts in rows:
        print(f"{name:<10} {seconds:>8.1f}  {status:<10} {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
