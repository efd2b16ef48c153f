"""Recall latency through the GraphQL endpoint, next to the in-memory floor.

    python bench/latency.py --memories 100000 [--queries 200] [--rounds 3] [--warmup 1500]
                            [--json OUT] [--data-dir DIR] [--heap 2g] [--server process|thread]
                            [--words K] [--build-only]

Builds N memories with realistic structure in a fresh embedded store: 2,000 generated sentences
are embedded with the real model and every memory is one of them, jittered (so memories form
clusters around real sentences and text queries land near them), with 3 tags from its topic and
about 5 RELATES_TO edges (consecutive memories of a session plus links inside its topic). Then
it serves the real app (`hippograph serve` on the store, a process of its own; --server thread
runs it with uvicorn in this process instead), warms it with --warmup untimed recalls (the
timed texts' words reversed) and times warm `recall` calls over HTTP: p50/p95/p99, the
query-embedding time apart, over --rounds rounds of the --queries queries, each round printed
and all of them pooled (on these shared 2 cores one round of 200 has measured p95 36 ms and the
next, the same code on the same store, 62 ms: a single round's figure says little). The floor, on the same graph and query vectors: exact numpy top-k
plus an in-memory breadth-first expansion. It also measures the vector index's recall of the
exact top-10, and prints the CPU the server's JIT compiler threads used during the timed
recalls (Linux): the engine's JIT keeps compiling for about the first 1,200 recalls (at 100k,
in blocks of 200 after start: 55, 18, 8, 6, 6, 2 then under 1 ms of compiler CPU a recall), on
the same 2 cores as the recalls, so a run timed after 500 warm-ups measured a server still
warming up (7.6 ms of compiler CPU a timed recall, p99 58 ms, against 0.3 ms and 43 ms after
1,500 warm-ups, one run after the other).

With --data-dir the built store and what the floor needs are kept there, and a later run with
the same directory and N times the queries again without rebuilding, serving the kept store and
attaching to it (one engine heap live, not two). --build-only builds the store, its vocabulary
and the vector index's graph, and stops: on 2 loaded cores, 100,000 memories took 4 min 20 s,
the vocabulary 2 min 10 s and the graph 8 min (docs/research/scale.md).

--words K gives the store a natural vocabulary for the full-text path: each memory also holds K
words drawn from 20,000 made-up words with Zipf's law (the word of rank r with probability
proportional to 1 / r, as in text), and each query 2 of them. Without it every word of the store
is held by 5,000 memories or more, so the full-text budget leaves every query word out of the
index's search and the bench times the vector and expansion path only. A store with words needs
a --data-dir of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import graph  # noqa: E402
from bench.server import serve as serve_process  # noqa: E402
from hippograph.api.app import create_app  # noqa: E402
from hippograph.graph import vocabulary  # noqa: E402
from hippograph.graph.model import content_hash, now_iso  # noqa: E402
from hippograph.graph.recall.recipes import DEFAULT_CASCADE  # noqa: E402
from hippograph.graph.recall.seeds import query_words  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.graph.store.store import vector  # noqa: E402
from hippograph.graph.text import fulltext  # noqa: E402
from hippograph.graph.text.stopwords import FUNCTION_WORDS  # noqa: E402
from hippograph.settings import GraphSettings  # noqa: E402

NAMESPACE = "bench"
# fmt: off
PEOPLE = (
    ["Ana", "Ben", "Chloe", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lea", "Max", "Nia", "Omar", "Pia", "Raj", "Sia", "Tom", "Uma"]
)
VERBS = ["likes", "hates", "fixed", "planned", "visited", "bought", "booked", "painted", "wrote", "cooked"]
THINGS = ["the garden shed", "a vintage bike", "the quarterly report", "a sourdough loaf", "the staging server", "a trip to Lisbon", "the violin lessons", "a marathon", "the kitchen sink", "a chess club", "the tax return", "a birthday party", "the robot kit", "a camping tent", "the jazz album", "a database migration"]
PLACES = ["at home", "at work", "in the park", "downtown", "on Sunday", "last week", "in June", "with friends"]
# fmt: on
QUERY = "query($ns: String!, $c: String!) { recall(namespace: $ns, context: $c, k: 10) { embedMs items { score } } }"


def sentences(n: int, rng: random.Random) -> list[str]:
    seen: dict[str, None] = {}
    while len(seen) < n:
        seen[
            f"{rng.choice(PEOPLE)} {rng.choice(VERBS)} {rng.choice(THINGS)} {rng.choice(PLACES)}"
        ] = None
    return list(seen)


VOCABULARY = 20_000
SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]


class Zipf:
    """Made-up words (``size`` of them, distinct) drawn with Zipf's law: rank r with
    probability proportional to 1 / r."""

    def __init__(self, size: int, rng: random.Random) -> None:
        words: dict[str, None] = {}
        while len(words) < size:
            words["".join(rng.choices(SYLLABLES, k=rng.randint(2, 4)))] = None
        self.words = list(words)
        weights = 1.0 / np.arange(1, size + 1)
        self._cumulative = np.cumsum(weights / weights.sum())
        self._rng = np.random.default_rng(rng.randrange(2**32))

    def draw(self, k: int) -> list[str]:
        ranks = np.searchsorted(self._cumulative, self._rng.random(k), side="right")
        return [self.words[min(int(r), len(self.words) - 1)] for r in ranks]


def build(
    rt: Runtime, n: int, rng: random.Random, words: int = 0
) -> tuple[list[str], np.ndarray, dict[str, list[tuple[str, float]]], list[str]]:
    base = sentences(2000, rng)
    zipf = Zipf(VOCABULARY, rng) if words else None
    base_vecs = rt.embedder.embed(base)
    nprng = np.random.default_rng(7)
    pick = nprng.integers(0, len(base), size=n)
    vecs = jittered(base_vecs, pick, nprng)
    ids = [str(uuid.uuid4()) for _ in range(n)]
    topic_of = [int(i) % 100 for i in pick]
    by_topic: dict[int, list[int]] = defaultdict(list)
    for i, t in enumerate(topic_of):
        by_topic[t].append(i)
    edges: dict[str, list[tuple[str, float]]] = defaultdict(list)
    now = now_iso()
    started = time.perf_counter()
    batch = 1000
    progress = max(batch, n // 100 // batch * batch)
    for start in range(0, n, batch):
        rows, pairs, links = [], [], []
        end = min(n, start + batch)
        for i in range(start, end):
            said = f": {' '.join(zipf.draw(words))}" if zipf else ""
            text = f"{base[pick[i]]} (note {i}{said})"
            rows.append(
                {
                    "id": ids[i],
                    "namespace": NAMESPACE,
                    "content": text,
                    "ft_terms": fulltext.indexed(NAMESPACE, text),
                    "content_hash": content_hash(text),
                    "memory_type": "fact",
                    "scope": "global",
                    "scope_key": "global",
                    "provenance": "observed",
                    "created_at": now,
                    "recorded_at": now,
                    "updated_at": now,
                    "access_count": 0,
                    "strength": 1,
                    "confidence": 0.8,
                    "initial_confidence": 0.8,
                    "trust_score": 1.0,
                    "status": "active",
                    "source_session": f"s{i // 20}",
                    "source_messages": str(i % 20),
                    "embedding": vector(vecs[i]),  # its repr is short: the driver formats every row
                }
            )
            pairs += [{"memory_id": ids[i], "tag": f"topic-{topic_of[i]}-{j}"} for j in range(3)]
            targets = [i - 1] if i % 20 else []
            targets += rng.sample(by_topic[topic_of[i]], 4)
            for j in targets:
                # A link to a memory of a later batch is drawn (the random sequence, so the
                # store, stays what it was) but not written: its end does not exist yet.
                if j != i and 0 <= j < n:
                    w = round(rng.uniform(0.3, 1.0), 3)
                    if j >= end:
                        continue
                    props = {"weight": w, "confidence": 1.0, "kind": "bench", "created_at": now}
                    links.append({"from_id": ids[i], "to_key": ids[j], "props": props})
                    edges[ids[i]].append((ids[j], w))
                    edges[ids[j]].append((ids[i], w))
        rt.store.write("import/memories", rows=rows)
        rt.store.write("tag/attach", namespace=NAMESPACE, pairs=pairs, now=now)
        rt.store.write("import/edge_relates_to", rows=links)
        rate = end / (time.perf_counter() - started)
        if end % progress == 0 or end == n:
            print(f"built {end}/{n} memories ({rate:.0f}/s)", flush=True)
    queries = [s.replace(" at ", " around ") for s in rng.sample(base, 200)]
    if zipf:
        queries = [f"{q} ({' '.join(zipf.draw(2))})" for q in queries]
    return ids, vecs, edges, queries


def jittered(base: np.ndarray, pick: np.ndarray, nprng: np.random.Generator) -> np.ndarray:
    """``base[pick]`` plus Gaussian noise (sd 0.02), normalised: float32, made in blocks so a
    million 384-float vectors never hold a float64 copy (3 GB) at once."""
    vecs = np.empty((len(pick), base.shape[1]), dtype=np.float32)
    block = 100_000
    for start in range(0, len(pick), block):
        rows = pick[start : start + block]
        noise = nprng.normal(0, 0.02, size=(len(rows), base.shape[1])).astype(np.float32)
        part = base[rows] + noise
        vecs[start : start + len(rows)] = part / np.linalg.norm(part, axis=1, keepdims=True)
    return vecs


def floor(
    ids: list[str], vecs: np.ndarray, edges: dict[str, list[tuple[str, float]]], qvecs: np.ndarray
) -> list[float]:
    """Exact top-k + in-memory BFS to depth 2 with the same fan-out: the best we could do."""
    cfg = DEFAULT_CASCADE
    times = []
    for q in qvecs:
        t = time.perf_counter()
        scores = vecs @ q
        top = np.argpartition(-scores, cfg.gather.vector_seeds)[: cfg.gather.vector_seeds]
        act = {ids[i]: float(scores[i]) for i in top}
        frontier = list(act)
        for _ in range(cfg.spread.depth):
            nxt = {}
            for u in frontier[: cfg.spread.frontier]:
                for v, w in sorted(edges.get(u, ()), key=lambda e: -e[1])[: cfg.spread.fan_out]:
                    a = act[u] * w * cfg.spread.hop_decay
                    if a > act.get(v, 0.0):
                        act[v] = nxt[v] = a
            frontier = list(nxt)
        sorted(act.items(), key=lambda kv: -kv[1])[:10]
        times.append((time.perf_counter() - t) * 1000)
    return times


def seed_recall(rt: Runtime, vecs: np.ndarray, ids: list[str], qvecs: np.ndarray) -> float:
    hits = []
    for q in qvecs:
        exact = {ids[i] for i in np.argsort(-(vecs @ q))[:10]}
        rows = rt.store.read(
            "recall/vector_seeds",
            namespace=NAMESPACE,
            statuses=["active"],
            embedding=[float(x) for x in q],
            k=10,
            candidates=max(10 * rt.store.dialect.vector_oversample, 100),
            scopes=["global"],
            as_of=None,
        )
        hits.append(len(exact & {r["id"] for r in rows}) / 10)
    return float(np.mean(hits))


def serve(rt: Runtime) -> tuple[str, object]:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(runtime=rt), host="127.0.0.1", port=port, log_level="warning")
    )
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return f"http://127.0.0.1:{port}/graphql", server


def save_state(
    path: Path,
    ids: list[str],
    vecs: np.ndarray,
    edges: dict[str, list[tuple[str, float]]],
    queries: list[str],
) -> None:
    extra = json.dumps({"ids": ids, "edges": edges, "queries": queries})
    np.savez(path, vecs=vecs, extra=np.frombuffer(extra.encode(), dtype=np.uint8))


def load_state(
    path: Path,
) -> tuple[list[str], np.ndarray, dict[str, list[tuple[str, float]]], list[str]]:
    with np.load(path) as data:
        extra = json.loads(data["extra"].tobytes().decode())
        vecs = data["vecs"]
    edges = {k: [(d, float(w)) for d, w in v] for k, v in extra["edges"].items()}
    return extra["ids"], vecs, edges, extra["queries"]


def update_vocabulary(rt: Runtime) -> None:
    """Runs the vocabulary job's work (recall's vocabulary seeds) on the bench namespace."""
    started = time.perf_counter()
    built = vocabulary.update(
        rt.store,
        rt.embedder,
        NAMESPACE,
        progress=lambda u: (
            print(f"vocabulary: {u.memories} memories read, {u.words} words", flush=True)
            if u.memories % 10_000 < vocabulary.PAGE
            else None
        ),
    )
    print(
        f"vocabulary: {built.words} words added from {built.memories} memories in "
        f"{time.perf_counter() - started:.1f}s",
        flush=True,
    )


def warmup_texts(queries: list[str]) -> list[str]:
    """Untimed warm-up contexts: the timed queries' words reversed (same words, other texts)."""
    return [" ".join(reversed(q.split())) for q in queries]


def wordless_texts(n: int, rng: random.Random) -> list[str]:
    """``n`` distinct contexts without a word the full-text index holds ("what did they do about
    it then"): a recall whose full text finds nothing, which a conversation asks often."""
    words = sorted(FUNCTION_WORDS)
    texts: dict[str, None] = {}
    while len(texts) < n:
        text = " ".join(rng.sample(words, 6)).capitalize() + "?"
        if not query_words(text):
            texts[text] = None
    return list(texts)


def rare_word_texts(queries: list[str], n: int, memories: int, rng: random.Random) -> list[str]:
    """``n`` of the queries with a word few memories hold (a note number): every other word of
    this store is held by 5,000 memories or more, which the full-text budget leaves out, so
    only such a context times the full-text path."""
    return [f"{q} (note {rng.randrange(memories)})" for q in queries[:n]]


def pct(values: list[float], p: float) -> float:
    return float(np.percentile(values, p))


def compiler_cpu_s(pid: int) -> float | None:
    """CPU seconds the JVM's JIT compiler threads of process ``pid`` have used (Linux /proc;
    None elsewhere): how much compiling still went on while recalls were timed."""
    total, found = 0.0, False
    for stat in Path(f"/proc/{pid}/task").glob("*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # the thread ended
            continue
        name, fields = text[text.index("(") + 1 : text.rindex(")")], text[text.rindex(")") + 2 :]
        if "CompilerThre" in name:  # "C2 CompilerThre", "C1 CompilerThre"
            utime, stime = fields.split()[11:13]
            total += (int(utime) + int(stime)) / os.sysconf("SC_CLK_TCK")
            found = True
    return total if found else None


def timed_recall(client: httpx.Client, url: str, context: str) -> tuple[float, dict[str, Any]]:
    """One recall of ``context`` over HTTP: its milliseconds end to end and its answer (an
    answer with errors ends the bench)."""
    t = time.perf_counter()
    response = client.post(url, json={"query": QUERY, "variables": {"ns": NAMESPACE, "c": context}})
    ms = (time.perf_counter() - t) * 1000
    body: dict[str, Any] = response.json()
    if body.get("errors"):
        raise SystemExit(f"recall failed: {body['errors']}")
    return ms, body


def time_recalls(
    url: str,
    queries: list[str],
    warmup: int,
    server_pid: int,
    rounds: int = 1,
    extra: Mapping[str, Sequence[str]] | None = None,
) -> tuple[list[list[float]], list[list[float]], float | None, dict[str, list[float]]]:
    """Warm-up recalls (untimed), then each query timed end to end, ``rounds`` times, then each
    context of each ``extra`` set once: (total ms per round, embed ms per round, JIT compiler
    CPU ms per timed query recall in the server, None when unknown, ms per recall of each
    extra set)."""
    totals: list[list[float]] = []
    embeds: list[list[float]] = []
    with httpx.Client(timeout=60) as client:
        warmups = warmup_texts(queries)
        for n in range(warmup):
            client.post(
                url,
                json={
                    "query": QUERY,
                    "variables": {"ns": NAMESPACE, "c": warmups[n % len(warmups)]},
                },
            ).raise_for_status()
            if (n + 1) % 100 == 0 or n + 1 == warmup:
                print(f"\rwarm-up {n + 1}/{warmup} recalls", end="", flush=True)
        print()
        compiling = compiler_cpu_s(server_pid)
        for r in range(1, rounds + 1):
            total, embed = [], []
            for n, q in enumerate(queries, start=1):
                ms, body = timed_recall(client, url, q)
                total.append(ms)
                embed.append(body["data"]["recall"]["embedMs"])
                print(f"\rround {r}/{rounds}: timed {n}/{len(queries)} recalls", end="", flush=True)
            totals.append(total)
            embeds.append(embed)
        print()
        compiled = compiler_cpu_s(server_pid)
        timed: dict[str, list[float]] = {}
        for name, contexts in (extra or {}).items():
            for q in contexts:
                timed.setdefault(name, []).append(timed_recall(client, url, q)[0])
    jit_ms = None
    if compiling is not None and compiled is not None:
        jit_ms = (compiled - compiling) * 1000 / (len(queries) * rounds)
    return totals, embeds, jit_ms, timed


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--warmup", type=int, default=1500,
        help="untimed recalls first (the engine's JIT compiles its hot paths over about the "
             "first 1,200; their text is the timed queries' words reversed)",
    )  # fmt: skip
    parser.add_argument(
        "--rounds", type=int, default=3, help="time the queries this many times, one after another"
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument("--data-dir", type=Path, help="keep (or reuse) the built store here")
    parser.add_argument(
        "--heap", default=GraphSettings.engine_heap, help="the embedded engine's JVM heap"
    )
    parser.add_argument(
        "--server", choices=["process", "thread"], default="process",
        help="the app as a `hippograph serve` process (default) or in a thread of this one",
    )  # fmt: skip
    parser.add_argument(
        "--words", type=int, default=0,
        help="words of a Zipf vocabulary in each memory (2 in each query); see above",
    )  # fmt: skip
    parser.add_argument(
        "--build-only", action="store_true",
        help="build the store in --data-dir (and its vocabulary) and stop: a later run reuses it",
    )  # fmt: skip
    graph.add_arguments(parser)
    args = parser.parse_args()
    rng = random.Random(11)
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="hippograph-latency-"))
    words = f"-words{args.words}" if args.words else ""
    state = data_dir / f"bench-state-{args.memories}{words}.npz"
    settings = graph.settings(args, data_dir=data_dir, engine_heap=args.heap)
    if args.build_only and not args.data_dir:
        parser.error("--build-only needs --data-dir (where the store is kept)")
    # A store built before is served first and this process attaches to it: no second
    # engine here (its heap is committed whole, --heap again: 2 x 4 GB at 1M memories).
    reuse = state.exists() and args.server == "process"
    served = serve_process(data_dir, engine_heap=args.heap, timeout_s=1800) if reuse else None
    rt: Runtime | None = None
    try:
        rt = Runtime.open(settings, attach=reuse)
        if state.exists():
            ids, vecs, edges, queries = load_state(state)
            print(f"reusing the {len(ids)} memories built in {data_dir}", flush=True)
        else:
            ids, vecs, edges, queries = build(rt, args.memories, rng, args.words)
            if args.data_dir:
                save_state(state, ids, vecs, edges, queries)
        # The vocabulary job's work (recall's vocabulary seeds), done before the recalls;
        # on a reused store it only reads what is stamped already.
        update_vocabulary(rt)
        if args.build_only:
            # The engine builds the vector index's graph at the first search after the inserts
            # (100k vectors: 8 minutes on one thread of a loaded machine): here, not in a
            # timed run's warm-up, which the server would otherwise spend waiting for it.
            started = time.perf_counter()
            seed_recall(rt, vecs, ids, vecs[:1])
            print(f"vector index graph built in {time.perf_counter() - started:.0f}s", flush=True)
            return 0
        queries = (queries * (args.queries // len(queries) + 1))[: args.queries]
        qvecs = rt.embedder.embed(queries)
        # Timed apart, after the rounds, and not pooled: contexts whose full text finds
        # nothing, and contexts with a word few memories hold (the full-text path).
        extra = {
            "without a full-text word": wordless_texts(50, rng),
            "with a rare word": rare_word_texts(queries, 50, len(ids), rng),
        }
        # The floor before the recalls (on a reused store the server idles meanwhile).
        floors = floor(ids, vecs, edges, qvecs)
        if args.server == "thread":
            url, server = serve(rt)
            totals, embeds, jit_ms, apart = time_recalls(
                url, queries, args.warmup, os.getpid(), args.rounds, extra
            )
            server.should_exit = True  # type: ignore[attr-defined]
        else:
            if served is None:
                rt.close()  # the server process owns the engine; this one attaches to it
                rt = None
                served = serve_process(data_dir, engine_heap=args.heap, timeout_s=1800)
                rt = Runtime.open(settings, attach=True)
            totals, embeds, jit_ms, apart = time_recalls(
                served.url, queries, args.warmup, served.proc.pid, args.rounds, extra
            )
        seed = seed_recall(rt, vecs, ids, qvecs[:100])
    finally:
        if rt is not None:
            rt.close()
        if served is not None:
            served.stop()
    total = [ms for r in totals for ms in r]
    embed = [ms for r in embeds for ms in r]
    floor_p95 = pct(floors, 95)
    rounds = [
        {
            "p50_ms": round(statistics.median(t), 2),
            "p95_ms": round(pct(t, 95), 2),
            "embed_ms_p50": round(statistics.median(e), 2),
            "ratio": round(pct(t, 95) / (floor_p95 + statistics.median(e)), 2),
        }
        for t, e in zip(totals, embeds, strict=True)
    ]
    out = {
        "memories": args.memories,
        "words": args.words,
        "p50_ms": round(statistics.median(total), 2),
        "p95_ms": round(pct(total, 95), 2),
        "p99_ms": round(pct(total, 99), 2),
        "embed_ms_p50": round(statistics.median(embed), 2),
        "floor_p95_ms": round(floor_p95, 2),
        "seed_recall": round(seed, 3),
        "rounds": rounds,
        "apart": {
            name: {"p50_ms": round(statistics.median(v), 2), "p95_ms": round(pct(v, 95), 2)}
            for name, v in apart.items()
        },
    }
    for n, r in enumerate(rounds, start=1):
        print(
            f"round {n}: p50 {r['p50_ms']} ms  p95 {r['p95_ms']} ms  "
            f"(query embedding p50 {r['embed_ms_p50']} ms)  ratio {r['ratio']:.1f}x"
        )
    print(f"recall over HTTP, {len(total)} warm calls on {args.memories} memories, pooled:")
    print(
        f"  p50 {out['p50_ms']} ms  p95 {out['p95_ms']} ms  p99 {out['p99_ms']} ms  (query embedding p50 {out['embed_ms_p50']} ms)"
    )
    print(
        f"  floor (exact numpy top-k + in-memory BFS) p95 {out['floor_p95_ms']} ms; ratio p95/floor+embed "
        f"{out['p95_ms'] / (out['floor_p95_ms'] + out['embed_ms_p50']):.1f}x"
    )
    print(f"  vector index recall of the exact top-10: {out['seed_recall']}")
    for name, v in apart.items():
        print(
            f"  {len(v)} contexts {name} (not pooled): "
            f"p50 {statistics.median(v):.2f} ms  p95 {pct(v, 95):.2f} ms"
        )
    if jit_ms is not None:
        print(f"  the engine's JIT compiler during the timed recalls: {jit_ms:.1f} ms CPU a recall")
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
