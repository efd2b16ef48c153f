"""Breadth-first expansion from the seeds over weighted edges (``recall/expand``, one statement
per hop), activation decaying per hop, and the scoring reads that bring back every candidate's
ranking fields."""

from __future__ import annotations

import math
from typing import Any

from hippograph.graph.recall.caches import RecallCaches
from hippograph.graph.recall.candidates import Candidate, Pool, Query, Ranking
from hippograph.graph.recall.recall_config import CascadeConfig, SpreadConfig
from hippograph.graph.recall.results import Step
from hippograph.graph.recall.seeds import relevance
from hippograph.graph.store.store import Store
from hippograph.graph.store.store import vector as as_vector


def spread(q: Query, pool: Pool) -> None:
    """The spread stage: every candidate's ranking fields read and activation spread from the
    seeds (``expand``); a seed starts with its relevance."""
    if len(pool.candidates) > q.config.spread.frontier:
        # The first hop expands the most relevant seeds only: score them before it.
        score(q, pool, list(pool.candidates))
    total = active_count(q.caches, q.store, q.namespace) if q.config.spread.depth else 0
    expand(q, pool, total)
    rest = [i for i, c in pool.candidates.items() if c.ranking is None]
    if rest:  # no expansion ran, or a successor or a seed it did not reach
        score(q, pool, rest)


def score(q: Query, pool: Pool, ids: list[str]) -> None:
    """Read what ranking needs of ``ids``; a seed starts with its relevance."""
    found = q.store.read(
        "recall/scores", namespace=q.namespace, ids=pool.pairs(ids), **_reads(q, pool)
    )
    for hit in found[0]["rows"] if found else []:  # an aggregate answers one row, even over nothing
        candidate = pool.candidates[hit[0]]
        candidate.ranking = Ranking.decode(hit[1:])
        candidate.activation = relevance(candidate, pool, q.config.relevance)


def _reads(q: Query, pool: Pool) -> dict[str, Any]:
    """What the scoring statements read against: the query vector, and whether speakers."""
    return {"embedding": as_vector(pool.query), "with_speakers": q.cues.reads_speakers}


# A hit of recall/expand: [src, dst, dst's element id, edge type, weight, via, degree, then
# dst's Ranking fields]; 'SELF' hits score a seed not scored yet.
HIT_HEAD = 7


def expand(q: Query, pool: Pool, total: int) -> None:
    """Spread activation breadth-first from the seeds (a seed starts with its relevance). A
    memory keeps the largest amount it receives from another memory and passes that on.
    ``total``: the namespace's active memories (a tag's rarity).

    Every memory reached comes back with its ranking fields; the first hop also scores the
    seeds not scored yet (its 'SELF' rows), before spreading from them."""
    config = q.config.spread
    candidates = pool.candidates
    frontier = sorted(candidates, key=lambda i: -candidates[i].activation)
    unscored = [i for i, c in candidates.items() if c.ranking is None]
    reads = _reads(q, pool)
    for hop in range(config.depth):
        if not frontier:
            return
        expanded = frontier[: config.frontier if hop == 0 else config.later_frontier]
        found = q.store.read(
            "recall/expand",
            namespace=q.namespace,
            frontier=pool.pairs(expanded),
            scored_ids=pool.pairs(unscored),
            statuses=q.statuses,
            edge_floor=config.edge_floor,
            fan_out=config.fan_out,
            max_tag_degree=config.max_tag_degree,
            max_cluster_size=config.max_cluster_size,
            max_entity_degree=config.max_entity_degree if config.mentions_weight > 0 else 0,
            **q.scope,
            **reads,
        )
        unscored = []
        hits = [hit for r in found for hit in r["hits"]]
        touched = receive(pool, hits, q.config, total)
        frontier = sorted(touched, key=lambda i: -touched[i])


def receive(
    pool: Pool, hits: list[list[Any]], config: CascadeConfig, total: int
) -> dict[str, float]:
    """One hop's hits (recall/expand's lists, read by position: ~250 a recall; ``HIT_HEAD``
    fields, then a ``Ranking``) into the pool: each memory reached becomes a candidate with its
    ranking fields, a 'SELF' hit's seed starts with its relevance, and each edge passes its
    source's activation x weight x hop decay on, a memory keeping the largest amount it
    receives. Returns the memories whose activation rose (the next hop's frontier). Pure: it
    reads nothing from the store."""
    candidates = pool.candidates
    for hit in hits:
        dst, kind = hit[1], hit[3]
        pool.eids[dst] = hit[2]
        target = candidates.get(dst)
        if target is None:
            target = candidates[dst] = Candidate(id=dst, kinds={"expanded"})
        if kind == "SELF" or target.ranking is None:
            target.ranking = Ranking.decode(hit[HIT_HEAD:])
        if kind == "SELF":
            target.activation = relevance(target, pool, config.relevance)
    touched: dict[str, float] = {}
    for src, dst, _, kind, w, via, degree, *_ in hits:
        if kind == "SELF":
            continue
        source = candidates[src]
        weight = edge_weight(kind, w, degree, config.spread, total)
        decay = config.spread.entity_hop_decay if kind == "MENTIONS" else config.spread.hop_decay
        amount = source.activation * weight * decay
        target = candidates[dst]
        if amount <= target.received:
            continue
        target.received = amount
        if "expanded" in target.kinds:
            step = Step(from_id=src, to_id=dst, type=kind, via=via or "", weight=weight)
            target.seed, target.path = source.seed, (*source.path, step)
        if amount > target.activation:
            target.activation = amount
            touched[dst] = amount
    return touched


def active_count(caches: RecallCaches, store: Store, namespace: str) -> int:
    """The namespace's active memories, as ``caches`` last counted them (a tag's rarity)."""
    return caches.sizes.get((store, namespace))


def rarity(degree: Any, total: int) -> float:
    """log(total / degree) / log(total): 1 for what one memory holds, 0 for what all do."""
    degree = max(int(degree), 1)
    return math.log(total / degree) / math.log(total) if total > 1 and degree < total else 0.0


def edge_weight(kind: str, w: Any, degree: Any, config: SpreadConfig, total: int) -> float:
    if kind == "RELATES_TO":
        return float(w)
    if kind == "HAS_TAG":
        return config.has_tag_weight * rarity(degree, total)
    if kind == "MENTIONS":
        return config.mentions_weight * rarity(degree, total)
    if kind == "IN_CLUSTER":
        return config.in_cluster_weight
    if kind == "SUPERSEDES":
        return config.supersedes_weight
    return config.other_weight
