"""Consolidation time on 10,000 memories (one namespace, embedded engine, offline decider).

The memories are synthetic facts about 2,000 people, written without deciding (as an import
would), with 5% paraphrased duplicates, 2% changes over time and 1% weak ones, so the run has
real work to do. Prints the load time and the consolidation time (and the second, idle run).

    .venv/bin/python bench/consolidate.py [--memories 10000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import tempfile
import time
import uuid
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from hippograph.graph import consolidation, memories  # noqa: E402
from hippograph.graph.model import NewMemory, content_hash, now_iso  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.settings import Settings  # noqa: E402

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
        props = memories._node_props(NS, item, digest, key, vector, now)
        rows.append({**props, "id": str(uuid.uuid4())})
    for start in range(0, len(rows), 500):
        rt.store.write("memory/create", rows=rows[start : start + 500])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=10_000)
    args = parser.parse_args()
    data_dir = Path(tempfile.mkdtemp(prefix="hg-bench-consolidate-"))
    rt = Runtime.open(Settings.from_env({}, data_dir=data_dir), attach=False)
    try:
        started = time.perf_counter()
        load(rt, corpus(args.memories, random.Random(7)))
        count = rt.store.read("memory/count", namespace=NS, statuses=["active"])[0]["count"]
        print(f"loaded {count} memories in {time.perf_counter() - started:.1f}s")
        started = time.perf_counter()
        report = consolidation.consolidate(rt.store, namespace=NS, force=True)
        elapsed = time.perf_counter() - started
        print(f"consolidation of {count} memories: {elapsed:.1f}s "
              f"{json.dumps(report.counts, sort_keys=True)}")  # fmt: skip
        started = time.perf_counter()
        again = consolidation.consolidate(rt.store, namespace=NS, force=True)
        print(f"second (idempotent) run: {time.perf_counter() - started:.1f}s "
              f"{json.dumps(again.counts, sort_keys=True)}")  # fmt: skip
    finally:
        rt.close()
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
