"""Breadth-first expansion from the seeds over weighted edges (``recall/expand``, one statement
per hop), activation decaying per hop, and the scoring reads that bring back every candidate's
ranking fields."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hippograph.graph.model import effective_confidence
from hippograph.graph.recall.recall_config import CascadeConfig
from hippograph.graph.recall.results import Step, Trace
from hippograph.graph.recall.seeds import POOL
from hippograph.graph.store.revalidating import Revalidating
from hippograph.graph.store.store import Row, Store


@dataclass(frozen=True, kw_only=True)
class Scoring:
    """How candidates are scored: the statements' parameters (query vector, whether speakers
    are read) and a candidate's relevance from its row."""

    params: dict[str, Any]
    relevance: Callable[[Row], float]
    eids: dict[str, str]  # memory id -> element id, of every memory a statement returned

    def pairs(self, ids: Sequence[str]) -> list[list[str]]:
        """[element id, id] of each memory: how statements look memories up."""
        return [[self.eids[i], i] for i in ids]


def score(
    store: Store,
    ns: str,
    ids: list[str],
    scoring: Scoring,
    scored: dict[str, Row],
    traces: dict[str, Trace],
) -> None:
    """Fetch what ranking needs of ``ids`` into ``scored``; a seed starts with its relevance."""
    found = store.read("recall/scores", namespace=ns, ids=scoring.pairs(ids), **scoring.params)
    for hit in found[0]["rows"] if found else []:  # an aggregate answers one row, even over nothing
        row = ranking_row(hit)
        scored[row["id"]] = row
        traces[row["id"]].activation = scoring.relevance(row)


# The ranking fields of a memory, in the order recall/scores and recall/expand list them (both
# answer one row of lists: the embedded engine's cost per returned row is most of a small read).
SCORED_FIELDS = (
    "status", "memory_type", "created_at", "last_accessed",
    "confidence", "initial_confidence", "trust_score", "importance",
    "speakers", "cosine", "length", "asks",
)  # fmt: skip
HIT_FIELDS = ("src", "dst", "eid", "type", "w", "via", "degree", *SCORED_FIELDS)
FIRST_SCORED = HIT_FIELDS.index(SCORED_FIELDS[0])
SCORED_KEYS = ("id", *SCORED_FIELDS)


def ranking_row(values: Sequence[Any]) -> Row:
    """A memory's ranking fields by name (``SCORED_KEYS`` order), its ``confidence`` the one
    ranking reads (`model.effective_confidence` of the three stored values)."""
    row = dict(zip(SCORED_KEYS, values, strict=True))
    row["confidence"] = effective_confidence(
        row["confidence"], row.pop("initial_confidence"), row.pop("trust_score")
    )
    return row


def expand(
    store: Store,
    ns: str,
    traces: dict[str, Trace],
    config: CascadeConfig,
    statuses: list[str],
    scope: dict[str, Any],
    total: int,
    scoring: Scoring,
    scored: dict[str, Row],
) -> None:
    """Spread activation breadth-first from the seeds (a seed starts with its relevance). A
    memory keeps the largest amount it receives from another memory and passes that on.

    Every memory reached comes back with its ranking fields (into ``scored``); the first hop
    also scores the seeds not scored yet (its 'SELF' rows), before spreading from them."""
    frontier = sorted(traces, key=lambda i: -traces[i].activation)
    unscored = [i for i in traces if i not in scored]
    for hop in range(config.depth):
        if not frontier:
            return
        expanded = frontier[: config.frontier if hop == 0 else config.later_frontier]
        found = store.read(
            "recall/expand",
            namespace=ns,
            frontier=scoring.pairs(expanded),
            scored_ids=scoring.pairs(unscored),
            statuses=statuses,
            edge_floor=config.edge_floor,
            fan_out=config.fan_out,
            max_tag_degree=config.max_tag_degree,
            max_cluster_size=config.max_cluster_size,
            **scope,
            **scoring.params,
        )
        unscored = []
        # A hit is a list in HIT_FIELDS order, read by position (~250 a recall).
        hits = [hit for r in found for hit in r["hits"]]
        for hit in hits:
            if len(hit) != len(HIT_FIELDS):  # the statement and HIT_FIELDS disagree
                raise ValueError(f"recall/expand: a hit of {len(hit)} fields")
            dst, kind = hit[1], hit[3]
            scoring.eids[dst] = hit[2]
            if kind == "SELF" or dst not in scored:
                scored[dst] = ranking_row((dst, *hit[FIRST_SCORED:]))
            if kind == "SELF":
                traces[dst].activation = scoring.relevance(scored[dst])
        touched: dict[str, float] = {}
        for src, dst, _, kind, w, via, degree, *_ in hits:
            if kind == "SELF":
                continue
            source = traces[src]
            weight = edge_weight(kind, w, degree, config, total)
            amount = source.activation * weight * config.hop_decay
            target = traces.get(dst)
            if target is None:
                target = traces[dst] = Trace(kinds={"expanded"})
            if amount <= target.received:
                continue
            target.received = amount
            if "expanded" in target.kinds:
                step = Step(from_id=src, to_id=dst, type=kind, via=via or "", weight=weight)
                target.seed, target.path = source.seed, (*source.path, step)
            if amount > target.activation:
                target.activation = amount
                touched[dst] = amount
        frontier = sorted(touched, key=lambda i: -touched[i])


# Active memories per (store, namespace): it only scales tag rarity, log(n / degree) / log(n),
# which moves by under 1% when n moves by 10% (n >= 1,000, degree <= max_tag_degree), so a
# count somewhat old is as good as an exact one. Counting costs ~n records read (100k memories:
# ~0.5 s of engine time), so a count is kept 1,000 times as long as it took (a small namespace
# is recounted every few seconds, 100k every ~8 minutes), an expired one still used while a
# fresh one is counted off the query's path.
SIZES: Revalidating[tuple[Store, str], int] = Revalidating(
    lambda key: int(key[0].read("memory/count", namespace=key[1], statuses=["active"])[0]["count"]),
    refresh=POOL,
)


def active_count(store: Store, namespace: str) -> int:
    return SIZES.get((store, namespace))


def edge_weight(kind: str, w: Any, degree: Any, config: CascadeConfig, total: int) -> float:
    if kind == "RELATES_TO":
        return float(w)
    if kind == "HAS_TAG":
        degree = max(int(degree), 1)
        rarity = math.log(total / degree) / math.log(total) if total > 1 and degree < total else 0.0
        return config.has_tag_weight * rarity
    if kind == "IN_CLUSTER":
        return config.in_cluster_weight
    if kind == "SUPERSEDES":
        return config.supersedes_weight
    return config.other_weight
