"""Which cascade design retrieves LoCoMo evidence best: ablations and a leave-one-out check.

Run: ``python -m bench.research_locomo`` (ablation table), add ``--loo`` for the
leave-one-conversation-out robustness check of the few tuned constants.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from bench import cascade_reference as cascade
from bench import locomo_data as data
from bench.baselines import BM25, bm25_rank

BASE = cascade.CascadeConfig(activation_weight=0.0, adjacent_span=0, focus_speakers=False)

RECOMMENDED = cascade.CascadeConfig(
    focus_speakers=True,
    fusion="weighted",
    alpha=0.8,
    vector_seeds=10,
    min_seed_cosine=0.4,
    fulltext_seeds=10,
    prf_weight=0.3,
    prf_depth=3,
    prf_search=False,
    adjacent_span=1,
    adjacent_weight=1.0,
    tag_weight=0.8,
    max_tag_degree=10,
    cluster_weight=0.6,
    max_cluster_size=20,
    depth=2,
    hop_decay=0.7,
    fan_out=10,
    rescore_expanded=True,
    activation_weight=0.6,
    speaker_weight=0.3,
    time_weight=0.1,
    time_slack_days=31,
    recency_weight=0.0,
)

_FLAT = replace(
    RECOMMENDED,
    focus_speakers=False,
    prf_weight=0.0,
    adjacent_span=0,
    tag_weight=0.0,
    cluster_weight=0.0,
    activation_weight=0.0,
    speaker_weight=0.0,
    time_weight=0.0,
)
_NEXT = replace(_FLAT, adjacent_span=1, activation_weight=0.6)
_PRF = replace(_NEXT, prf_weight=0.3)
_FOCUS = replace(_PRF, focus_speakers=True, speaker_weight=0.3)

# name -> config; "-" rows take one thing out of the recommended design, "~" rows change one.
ABLATIONS: dict[str, cascade.CascadeConfig] = {
    "seeds, RRF fusion, no graph": replace(_FLAT, fusion="rrf"),
    "seeds, weighted fusion, no graph": _FLAT,
    "+ NEXT edges (turns +-1)": _NEXT,
    "+ PRF (query + 0.3 mean top-3)": _PRF,
    "+ speaker focus (strip name, boost)": _FOCUS,
    "+ date cue": replace(_FOCUS, time_weight=0.1),
    "+ HAS_TAG edges (idf, degree <= 10)": replace(_FOCUS, time_weight=0.1, tag_weight=0.8),
    "+ IN_CLUSTER edges = recommended": RECOMMENDED,
    "- NEXT edges": replace(RECOMMENDED, adjacent_span=0),
    "- HAS_TAG edges": replace(RECOMMENDED, tag_weight=0.0),
    "- IN_CLUSTER edges": replace(RECOMMENDED, cluster_weight=0.0),
    "- all edges (no expansion)": replace(
        RECOMMENDED, adjacent_span=0, tag_weight=0.0, cluster_weight=0.0
    ),
    "- PRF": replace(RECOMMENDED, prf_weight=0.0),
    "+ PRF second vector search": replace(RECOMMENDED, prf_search=True),
    "- speaker focus (name kept, no boost)": replace(
        RECOMMENDED, focus_speakers=False, speaker_weight=0.0
    ),
    "- name stripping only (boost kept)": replace(RECOMMENDED, focus_speakers=False),
    "- speaker boost only (name stripped)": replace(RECOMMENDED, speaker_weight=0.0),
    "- date cue": replace(RECOMMENDED, time_weight=0.0),
    "- re-scoring of expanded memories": replace(RECOMMENDED, rescore_expanded=False),
    "~ RRF instead of weighted fusion": replace(RECOMMENDED, fusion="rrf"),
    "~ NEXT span 2 (+-2 at weight 1/2)": replace(RECOMMENDED, adjacent_span=2),
    "~ depth 1": replace(RECOMMENDED, depth=1),
    "~ depth 3": replace(RECOMMENDED, depth=3),
    "~ HAS_TAG 0.4": replace(RECOMMENDED, tag_weight=0.4),
    "~ HAS_TAG degree <= 50": replace(RECOMMENDED, max_tag_degree=50),
    "~ fan-out 5": replace(RECOMMENDED, fan_out=5),
    "~ fan-out 30": replace(RECOMMENDED, fan_out=30),
    "~ seeds 20 + 20": replace(RECOMMENDED, vector_seeds=20, fulltext_seeds=20),
    "~ seeds 5 + 5": replace(RECOMMENDED, vector_seeds=5, fulltext_seeds=5),
    "~ min seed cosine 0.5": replace(RECOMMENDED, min_seed_cosine=0.5),
    "~ recency 0.05 (half-life 30 d)": replace(RECOMMENDED, recency_weight=0.05),
}


@dataclass
class Prepared:
    conversation: data.Conversation
    memories: cascade.Memories
    queries: dict[bool, list[cascade.Query]]  # by CascadeConfig.focus_speakers
    tags: list[frozenset[str]]
    clusters: np.ndarray


def prepare(conv: data.Conversation) -> Prepared:
    turns = conv.turns
    memories = cascade.Memories(
        ids=tuple(t.dia_id for t in turns),
        texts=tuple(t.text for t in turns),
        embeddings=data.embed([t.text for t in turns]),
        session=np.array([t.session for t in turns]),
        turn=np.array([t.index for t in turns]),
        time=tuple(t.time for t in turns),
        speaker=tuple(t.speaker for t in turns),
    )
    bm25 = BM25(memories.texts)
    queries = {}
    for focus in (False, True):
        focused = [
            cascade.focus(q.question, conv.speakers)
            if focus
            else (q.question, cascade.named_speakers(q.question, conv.speakers))
            for q in conv.questions
        ]
        vectors = data.embed([text for text, _ in focused])
        queries[focus] = [
            cascade.Query(q.question, vec, _hits(bm25, text), named)
            for q, vec, (text, named) in zip(conv.questions, vectors, focused, strict=True)
        ]
    tags = [cascade.tag(t.text, t.speaker) for t in turns]
    return Prepared(conv, memories, queries, tags, hdbscan_labels(memories.embeddings))


def _hits(bm25: BM25, text: str) -> list[tuple[int, float]]:
    scores = bm25.scores(text)
    return [(int(i), float(scores[i])) for i in bm25_rank(scores)]


def hdbscan_labels(embeddings: np.ndarray, min_cluster_size: int = 5) -> np.ndarray:
    import hdbscan

    # "leaf" selection: the default "eom" lumps most chat turns into one giant cluster.
    clusterer = hdbscan.HDBSCAN(min_cluster_size=min_cluster_size, cluster_selection_method="leaf")
    return np.asarray(clusterer.fit_predict(embeddings.astype(np.float64)))


def evaluate(prepared: Sequence[Prepared], config: cascade.CascadeConfig) -> data.RecallTable:
    table = data.RecallTable()
    for p in prepared:
        graph = cascade.build_graph(p.memories, config, tags=p.tags, clusters=p.clusters)
        queries = p.queries[config.focus_speakers]
        for q, query in zip(p.conversation.questions, queries, strict=True):
            found = cascade.retrieve(p.memories, graph, query, config)
            table.add(q, [p.memories.ids[h.index] for h in found])
    return table


def print_row(name: str, table: data.RecallTable) -> None:
    print(f"{name:<40} {table.row(10)}   @5 {100 * table.recall(5):5.1f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--loo", action="store_true", help="leave-one-conversation-out check")
    args = parser.parse_args()
    prepared = [prepare(c) for c in data.load()]
    print(
        f"{len(prepared)} conversations, {sum(len(p.conversation.questions) for p in prepared)}"
        " questions; evidence recall@10 (%), last column recall@5"
    )
    print(f"{'variant':<40} {data.table_header()}")
    for name, config in ABLATIONS.items():
        print_row(name, evaluate(prepared, config))
    print("\nper conversation, recommended: recall@10 all / multi-hop")
    for p in prepared:
        t = evaluate([p], RECOMMENDED)
        all_, multi = 100 * t.recall(10), 100 * t.recall(10, 1)
        print(f"  {p.conversation.sample_id}: {all_:5.1f} / {multi:5.1f}")
    if args.loo:
        leave_one_out(prepared)


LOO_GRID: dict[str, tuple[float, ...]] = {
    "alpha": (0.7, 0.8, 0.9),
    "activation_weight": (0.4, 0.6, 0.8),
    "speaker_weight": (0.2, 0.3, 0.4),
    "prf_weight": (0.0, 0.3, 0.5),
    "tag_weight": (0.4, 0.8, 1.0),
}


def leave_one_out(prepared: Sequence[Prepared]) -> None:
    """Pick the tuned constants on four conversations, test them on the fifth."""
    names = list(LOO_GRID)
    grid = [
        replace(RECOMMENDED, **dict[str, Any](zip(names, values, strict=True)))
        for values in itertools.product(*LOO_GRID.values())
    ]
    per_conv = [[evaluate([p], config) for p in prepared] for config in grid]
    print(f"\nleave one conversation out over {len(grid)} settings of {', '.join(names)}")
    held_out_tables = []
    for h, held_out in enumerate(prepared):
        train_score = [
            merge(t for i, t in enumerate(tables) if i != h).recall(10) for tables in per_conv
        ]
        best = int(np.argmax(train_score))
        held_out_tables.append(per_conv[best][h])
        picked = ", ".join(f"{n}={getattr(grid[best], n)}" for n in names)
        test = per_conv[best][h]
        print(
            f"  {held_out.conversation.sample_id}: picked {picked} -> held-out "
            f"{100 * test.recall(10):5.1f} / {100 * test.recall(10, 1):5.1f}"
        )
    pooled = merge(held_out_tables)
    print(f"  pooled held-out: {pooled.row(10)}")
    for label, category in (("all", None), ("multi-hop", 1)):
        spread = np.array([merge(tables).recall(10, category) for tables in per_conv])
        print(
            f"  {label}, all {len(grid)} settings on all data: min {100 * spread.min():.1f}, "
            f"median {100 * np.median(spread):.1f}, max {100 * spread.max():.1f}"
        )


def merge(tables: Iterable[data.RecallTable]) -> data.RecallTable:
    out = data.RecallTable()
    for t in tables:
        for k, per_cat in t.scores.items():
            for cat, values in per_cat.items():
                out.scores[k].setdefault(cat, []).extend(values)
    return out


if __name__ == "__main__":
    main()
