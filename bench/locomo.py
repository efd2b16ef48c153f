"""LoCoMo evidence recall of `recall`, next to three baselines on the same memories.

    python bench/locomo.py --data ../shared/data/locomo/locomo-dev.json [--json OUT]
        [--budget 200 500 1000]

Each conversation goes into its own namespace of a fresh embedded store: one memory per turn
("Speaker: text [image: caption]", the session date as its time, the turn's dia_id as its
source); a turn longer than a memory may be (HIPPOGRAPH_MAX_CONTENT_BYTES) becomes the pieces
``ingest`` makes of it (``chunks.turn_pieces``: paragraph and sentence boundaries, each piece
with the speaker, its position in the turn and the turn's dia_id). Every category the file asks is reported, with the names it gives (BEAM in this layout
names its own). Then graph formation runs (tags were inferred at write time; consecutive turns are
linked). Every question except category 5 and those without evidence is asked through
`recall` with k=10. Baselines, on the memories as stored (contents and embeddings read back
from the graph): dense vector only (exact), BM25, and their reciprocal-rank fusion. Ablations,
the same `recall` on the same engine: ``no-vocabulary`` (no vocabulary seeds), ``no-addressee``
(no addressee cue: "you" in a question to an assistant's memory), ``framed`` (the frame that
reports a turn, "did I mention", left in the searched text), ``no-anchors`` (activation may push
the best direct matches out of the top k), ``no-standing`` (standing instructions, "Always ...
when I ask about X", not matched by their condition), ``no-expand`` (no graph expansion), ``entities`` (recall following entities: seeds from the
entities a question names, expansion over shared ones; off by default, so this is the
no-entities question asked the other way round) and ``seeds-only`` (hybrid seeds alone: no expansion, no pseudo-relevance feedback, no speaker,
addressee or date cues).
Recalls ask for the nearest memories even when nothing clears the relevance floor
(``include_gap``): the bench measures the ranking, not the gap threshold. Post-retrieval
maintenance is not run during the evaluation, so questions cannot leak into each
other through co-retrieval links.

``--budget N ...``: each question is also asked through the context bundle (``context``) at each
token budget; the evidence recall of the memories the bundle holds is printed beside the tokens
it used (what a prompt pays for).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import (
    baselines,  # noqa: E402
    graph,  # noqa: E402
)
from bench import locomo_data as data  # noqa: E402
from hippograph.graph import (
    transfer,  # noqa: E402
    vocabulary,  # noqa: E402
)
from hippograph.graph.model import ChunkPosition, NewMemory, Source, to_iso  # noqa: E402
from hippograph.graph.recall import bundle, retrieval  # noqa: E402
from hippograph.graph.recall.recipes import ABLATIONS  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.graph.write import chunks, formation, writepath  # noqa: E402

K = 10


def load(rt: Runtime, conv: data.Conversation, namespace: str) -> None:
    sessions: dict[int, list[data.Turn]] = {}
    for turn in conv.turns:
        sessions.setdefault(turn.session, []).append(turn)
    for number, turns in sorted(sessions.items()):
        items = session_memories(conv, number, turns, rt.limits.max_content_bytes)
        writepath.remember(rt.store, rt.embedder, namespace, items, policy=rt.policy)
    formation.link_adjacent(rt.store, namespace)
    vocabulary.update(rt.store, rt.embedder, namespace)


def session_memories(
    conv: data.Conversation, number: int, turns: list[data.Turn], max_bytes: int
) -> list[NewMemory]:
    """One session's turns as memories: a turn whole when it fits in one, else in the pieces
    ``ingest`` makes of a long turn (``chunks.turn_pieces``: each keeps the speaker, so it
    reads as that speaker's words, and its position in the turn)."""
    return [
        NewMemory(
            content=text,
            provenance="observed",
            source=Source(session_id=f"{conv.sample_id}:S{number}", messages=t.dia_id),
            occurred_at=to_iso(t.time),
            chunk=position,
        )
        for t in turns
        for text, position in _pieces(t, max_bytes)
    ]


def _pieces(turn: data.Turn, max_bytes: int) -> list[tuple[str, ChunkPosition | None]]:
    if len(turn.text.encode("utf-8")) <= max_bytes:
        return [(turn.text, None)]
    prefix = f"{turn.speaker}: "
    body = turn.text[len(prefix) :] if turn.text.startswith(prefix) else turn.text
    return list(chunks.turn_pieces(body, turn.speaker, max_bytes))


def stored(rt: Runtime, namespace: str) -> tuple[list[str], list[str], np.ndarray]:
    """dia_ids, contents and embeddings of the namespace's memories as the graph holds them."""
    rows = [r["props"] for r in transfer.export_lines(rt.store, namespace) if r["kind"] == "memory"]
    rows = [p for p in rows if p["status"] == "active"]
    return (
        [p["source_messages"] for p in rows],
        [p["content"] for p in rows],
        np.asarray([p["embedding"] for p in rows], dtype=np.float32),
    )


# A bundle's items are all counted: its budget, not k, bounds them.
WHOLE = 10_000


def evaluate(
    rt: Runtime,
    conv: data.Conversation,
    namespace: str,
    tables: dict[str, data.RecallTable],
    latencies: list[float],
    budgets: dict[int, list[int]],
) -> None:
    dia_ids, texts, vectors = stored(rt, namespace)
    bm25 = baselines.BM25(texts)
    for q in conv.questions:
        started = time.perf_counter()
        result = retrieval.recall(
            rt.store,
            rt.embedder,
            namespace,
            retrieval.RecallRequest(context=q.question, k=K, include_gap=True),
        )
        latencies.append((time.perf_counter() - started) * 1000)
        tables["cascade"].add(q, turns_of(result))
        for budget, used in budgets.items():
            found = bundle.build(
                rt.store, rt.embedder, namespace,
                bundle.ContextRequest(context=q.question, budget=budget),
            )  # fmt: skip
            turn = {i.memory.id: i.memory.source.messages or "" for i in found.result.items}
            tables[f"context@{budget}"].add(
                q, [turn[i.id] for i in found.items if i.section != "rules"]
            )
            used.append(found.tokens)
        # The same cascade on the same engine without parts of it: what the graph adds.
        for name, config in ABLATIONS.items():
            ablated = retrieval.recall(
                rt.store,
                rt.embedder,
                namespace,
                retrieval.RecallRequest(context=q.question, k=K, include_gap=True),
                config,
            )
            tables[name].add(q, turns_of(ablated))
        qv = rt.embedder.embed([q.question])[0]
        by_vector = baselines.rank(vectors @ qv)
        by_bm25 = baselines.bm25_rank(bm25.scores(q.question))
        fused = baselines.rank(baselines.rrf([by_vector, by_bm25], len(dia_ids)))
        for name, order in (("vector", by_vector), ("bm25", by_bm25), ("rrf", fused)):
            tables[name].add(q, [dia_ids[i] for i in order[:K]])


def turns_of(result: retrieval.RecallResult) -> list[str]:
    """The turns a recall returned, best first (flagged negative rules are not answers)."""
    return [i.memory.source.messages or "" for i in result.items if not i.flagged]


def summary(table: data.RecallTable, k: int) -> dict[str, float]:
    out = {"all": round(100 * table.recall(k), 1)}
    out.update({str(c): round(100 * table.recall(k, c), 1) for c in table.names or {}})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, required=True, help="LoCoMo JSON file")
    parser.add_argument("--json", type=Path, help="write the numbers here")
    parser.add_argument(
        "--data-dir", type=Path, help="embedded store directory (default: a temp dir)"
    )
    parser.add_argument(
        "--budget", type=int, nargs="+", default=[], help="also ask through context bundles"
    )
    parser.add_argument(
        "--limit", type=int, help="only the first N conversations (a quick run while iterating)"
    )
    parser.add_argument(
        "--no-ablations", action="store_true", help="skip the ablations (a quicker run)"
    )
    graph.add_arguments(parser)
    args = parser.parse_args()
    conversations = data.load(args.data)[: args.limit]
    if args.no_ablations:
        ABLATIONS.clear()
    categories = data.category_names(conversations)
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="hippograph-locomo-"))
    rt = Runtime.open(graph.settings(args, data_dir=data_dir), attach=False)
    names = ("cascade", *ABLATIONS, "vector", "bm25", "rrf")
    tables = {name: data.RecallTable(names=categories) for name in names}
    budgets: dict[int, list[int]] = {b: [] for b in args.budget}
    tables.update(
        {f"context@{b}": data.RecallTable(ks=(WHOLE,), names=categories) for b in budgets}
    )
    latencies: list[float] = []
    run_id = time.strftime("%Y%m%d%H%M%S")
    try:
        for n, conv in enumerate(conversations, start=1):
            namespace = f"locomo-{conv.sample_id}-{run_id}"
            started = time.perf_counter()
            load(rt, conv, namespace)
            loaded = time.perf_counter() - started
            evaluate(rt, conv, namespace, tables, latencies, budgets)
            print(
                f"[{n}/{len(conversations)}] {conv.sample_id}: {len(conv.turns)} turns stored and "
                f"linked in {loaded:.1f}s, {len(conv.questions)} questions asked",
                flush=True,
            )
    finally:
        rt.close()
    questions = tables["cascade"].count()
    print(
        f"\nLoCoMo {args.data.name}: {len(conversations)} conversations, {questions} questions, k={K}"
    )
    print(data.category_legend(categories))
    print(f"{'method':<10} {'@':>2} " + data.table_header(categories))
    for name, table in tables.items():
        if not name.startswith("context@"):
            for k in (5, 10):
                print(f"{name:<10} {k:>2} {table.row(k)}")
    contexts = {}
    if budgets:
        print(f"\ncontext bundles (evidence recall of what the bundle holds):\n{'budget':>6} "
              f"{'tokens':>6} {'p95':>5}  {data.table_header(categories)}  recall/100 tokens")  # fmt: skip
    for budget, used in budgets.items():
        table, mean = tables[f"context@{budget}"], float(np.mean(used))
        per_100 = 100 * 100 * table.recall(WHOLE) / mean if mean else 0.0
        p95_used = float(np.percentile(used, 95))
        print(f"{budget:>6} {mean:>6.0f} {p95_used:>5.0f}  {table.row(WHOLE)}  {per_100:.1f}")
        contexts[str(budget)] = {
            "recall": summary(table, WHOLE),
            "tokens_mean": round(mean, 1),
            "tokens_p95": round(p95_used, 1),
            "recall_points_per_100_tokens": round(per_100, 2),
        }
    p50, p95 = statistics.median(latencies), float(np.percentile(latencies, 95))
    print(f"recall latency over {len(latencies)} questions: p50 {p50:.1f} ms, p95 {p95:.1f} ms")
    if args.json:
        out = {
            "recall@10": summary(tables["cascade"], 10),
            "recall@5": summary(tables["cascade"], 5),
            "baselines": {
                n: {"recall@10": summary(tables[n], 10), "recall@5": summary(tables[n], 5)}
                for n in ("vector", "bm25", "rrf")
            },
            "ablations": {
                n: {"recall@10": summary(tables[n], 10), "recall@5": summary(tables[n], 5)}
                for n in ABLATIONS
            },
            "latency_ms": {"p50": round(p50, 2), "p95": round(p95, 2)},
            "questions": questions,
            "categories": {str(c): n for c, n in categories.items()},
        }
        if contexts:
            out["context"] = contexts
        args.json.write_text(json.dumps(out, indent=2))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
