"""Consolidation time on 10,000 memories (one namespace, embedded engine, offline decider).

The memories are synthetic facts about 2,000 people, written without deciding (as an import
would), with 5% paraphrased duplicates, 2% changes over time and 1% weak ones, so the run has
real work to do. Prints the load time and the consolidation time (and the second, idle run).

    .venv/bin/python bench/consolidate.py [--memories 10000] [--data-dir DIR] [--profile]
                                          [--check-pairs N]

--data-dir keeps the loaded store in DIR/loaded-N (embedding 100,000 texts takes minutes) and runs
each consolidation on a fresh copy of it in DIR/work; --profile prints where the time went,
statement by statement.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import graph  # noqa: E402
from bench.profiling import print_timings, statement_timings  # noqa: E402
from hippograph.graph import memories  # noqa: E402
from hippograph.graph.model import NewMemory, content_hash, now_iso  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.graph.upkeep import close_pairs, consolidation, consolidation_plan  # noqa: E402
from hippograph.graph.write import decide  # noqa: E402
from hippograph.settings import GraphSettings  # noqa: E402

NS = "bench"
THINGS = ["tea", "jazz", "chess", "sailing", "pottery", "sushi", "hiking", "opera", "rugby",
          "origami", "salsa", "poetry", "kayaking", "baking", "astronomy", "karaoke"]  # fmt: skip
CITIES = ["Paris", "Lima", "Oslo", "Cairo", "Osaka", "Quito", "Perth", "Riga", "Dakar", "Hanoi"]
JOBS = ["Google", "Microsoft", "Airbus", "Nokia", "Philips", "Siemens", "Lego", "Spotify"]


FIRST = ["Ana", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro", "Ines", "Jonas",
         "Keiko", "Liam", "Maya", "Nils", "Olga", "Pablo", "Qing", "Rosa", "Sven", "Tara"]  # fmt: skip
LAST = ["Lopez", "Smith", "Novak", "Tanaka", "Okafor", "Berg", "Rossi", "Dubois", "Kim", "Silva",
        "Meyer", "Costa", "Ivanova", "Haddad", "Moreau", "Jensen", "Kowal", "Reyes", "Sato",
        "Walsh", "Nagy", "Ortiz", "Popov", "Quinn", "Varga"]  # fmt: skip


def corpus(n: int, rng: random.Random) -> list[tuple[str, float]]:
    """``n`` distinct (content, confidence) pairs about people with real-looking names."""
    people = [f"{f} {last}{'' if i == 0 else f' {i}'}" for i in range(5)
              for f in FIRST for last in LAST]  # fmt: skip
    facts: list[tuple[str, float]] = []
    seen: set[str] = set()
    while len(facts) < n:
        who = rng.choice(people)
        roll = rng.random()
        if roll < 0.05 and facts:
            fact = (facts[-1][0].replace(" likes ", " really likes "), 0.7)
        elif roll < 0.07:
            fact = (f"{who} now works at {rng.choice(JOBS)}", 0.7)
        elif roll < 0.08:
            fact = (f"{who} once mentioned a {rng.choice(THINGS)} club", 0.01)
        else:
            template = rng.choice(("{} likes {}", "{} lives in {}", "{} works at {}"))
            pool = THINGS if "likes" in template else CITIES if "lives" in template else JOBS
            fact = (template.format(who, rng.choice(pool)), 0.7)
        if fact[0] not in seen:
            seen.add(fact[0])
            facts.append(fact)
    return facts


def load(rt: Runtime, facts: list[tuple[str, float]]) -> None:
    now = now_iso()
    seen: set[str] = set()
    rows = []
    vectors = rt.embedder.embed([c for c, _ in facts])
    for (content, confidence), vector in zip(facts, vectors, strict=True):
        item = NewMemory(content=content, confidence=confidence)
        digest = content_hash(content)
        key = memories.dedup_key(NS, item, digest)
        if key in seen:
            continue
        seen.add(key)
        props = memories.node_props(NS, item, digest, key, vector, now)
        rows.append({**props, "id": str(uuid.uuid4())})
    for start in range(0, len(rows), 500):
        rt.store.write("memory/create", rows=rows[start : start + 500])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="keep the loaded store here and run on a copy of it",
    )
    parser.add_argument(
        "--profile", action="store_true", help="print the time of every statement and transaction"
    )
    parser.add_argument(
        "--heap", default=GraphSettings.engine_heap, help="the embedded engine's JVM heap"
    )
    parser.add_argument(
        "--check-pairs",
        type=int,
        default=0,
        metavar="N",
        help="first measure, for N random memories, how many of their close "
        "pairs the probed search finds (exact search as the reference)",
    )
    graph.add_arguments(parser)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="hg-bench-consolidate-"))
    try:
        data_dir = _prepare(args, scratch)
        timings = statement_timings() if args.profile else None
        settings = graph.settings(args, data_dir=data_dir, engine_heap=args.heap)
        rt = Runtime.open(settings, attach=False)
        try:
            count = rt.store.read("memory/count", namespace=NS, statuses=["active"])[0]["count"]
            if args.check_pairs:
                check_pairs(rt, args.check_pairs)
            for label in ("consolidation of", "second (idle) run over"):
                started = time.perf_counter()
                report = consolidation.consolidate(rt.store, namespace=NS, force=True)
                print(f"{label} {count} memories: {time.perf_counter() - started:.1f}s "
                      f"{json.dumps(report.counts, sort_keys=True)}", flush=True)  # fmt: skip
                if timings is not None:
                    print_timings(timings)
        finally:
            rt.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _prepare(args: argparse.Namespace, scratch: Path) -> Path:
    """The data directory to consolidate: loaded now, or copied from the kept loaded store."""
    kept = args.data_dir / f"loaded-{args.memories}" if args.data_dir else scratch / "loaded"
    if not kept.exists():
        started = time.perf_counter()
        rt = Runtime.open(graph.settings(args, data_dir=kept), attach=False)
        try:
            load(rt, corpus(args.memories, random.Random(7)))
        finally:
            rt.close()
        print(f"loaded {args.memories} facts in {time.perf_counter() - started:.1f}s", flush=True)
    if args.data_dir is None:
        return kept
    work = args.data_dir / "work"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(kept, work)
    print(f"consolidating a copy of {kept}", flush=True)
    return work


def check_pairs(rt: Runtime, sample: int) -> None:
    """Close pairs of ``sample`` memories: found by the probed search / found exactly."""
    _, vectors = consolidation_plan.load(rt.store, NS, None, set())
    dirty = np.sort(np.random.default_rng(1).choice(len(vectors), sample, replace=False))
    started = time.perf_counter()
    probed = _pairs(close_pairs.probed_blocks(vectors, dirty))
    took = time.perf_counter() - started
    exact = _pairs(close_pairs.exact_blocks(vectors, dirty))
    for floor in (decide.CONSIDER_MIN, decide.CONTRADICT_MIN, decide.NOOP_MIN):
        want = {p for p, c in exact.items() if c >= floor}
        got = len(want & probed.keys())
        print(f"close pairs (cosine >= {floor}) of {sample} memories: probed search found "
              f"{got}/{len(want)} = {got / max(1, len(want)):.4f}", flush=True)  # fmt: skip
    print(f"probed search for {sample} memories over {len(vectors)}: {took:.1f}s", flush=True)


def _pairs(blocks: Any) -> dict[tuple[int, int], float]:
    found: dict[tuple[int, int], float] = {}
    for me, cols, sims in blocks:
        at, col = np.nonzero(sims >= decide.CONSIDER_MIN)
        found.update(zip(zip(me[at].tolist(), cols[col].tolist(), strict=True),
                         sims[at, col].tolist(), strict=True))  # fmt: skip
    return found


if __name__ == "__main__":
    main()
