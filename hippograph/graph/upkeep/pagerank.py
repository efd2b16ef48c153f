"""Weighted PageRank in-process, defined exactly like Neo4j GDS ``gds.pageRank``.

Production runs PageRank on Neo4j through GDS; without GDS (the embedded engine, or Neo4j
without the plugin) this module computes the same numbers so that the ``importance`` signal
does not depend on the backend.

What GDS computes (read from its source, ``org.neo4j.gds.pagerank.PageRankComputation``,
``PageRankConfig``, ``DegreeFunctions`` and the Pregel runner, and checked against the example
tables of the GDS manual, ``algorithms/page-rank.adoc``; ``tests/graph/test_pagerank.py``
reproduces those tables):

* Scores are not normalised. Every node starts at ``1 - d`` and the fixed point is
  ``PR(v) = (1 - d) + d * sum_u PR(u) * w(u, v) / W(u)``, where ``W(u)`` is the summed weight of
  u's outgoing relationships (weights <= 0 do not count). With no dangling nodes the scores sum
  to the node count; otherwise they sum to less.
* Dangling nodes (``W(u) == 0``) send nothing: their rank is not redistributed, and there is no
  teleport term beyond the constant ``1 - d``.
* GDS iterates on *changes*, as a Pregel program. Superstep 0 sets ``rank = 1 - d`` and sends
  ``rank / W(u) * w`` along every out-edge. Superstep k >= 1 sums what a node received into
  ``delta = d * received``, adds it to the rank, and forwards ``delta / W(u) * w`` only if
  ``delta > tolerance``; a node whose change is at most ``tolerance`` keeps it but stops
  propagating it. The run ends when no node's change exceeds ``tolerance`` (nothing is sent),
  or after ``maxIterations`` supersteps counting superstep 0. This is the power iteration
  ``x <- (1 - d) + d M x`` from ``x = 1 - d``, with per-node truncation of small changes; the
  truncation is why GDS's numbers differ from a plain power iteration in the last digits (and
  visibly for a large tolerance, see the manual's ``tolerance: 0.1`` example).
* Defaults: ``dampingFactor`` 0.85 (range [0, 1)), ``maxIterations`` 20 (>= 1), ``tolerance``
  1e-7 (>= 0), ``scaler`` NONE. Parallel relationships each carry their weight, so summing
  duplicate edges' weights here is the same thing.

This module replays that recurrence with one sparse matrix-vector product per superstep.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import sparse

from hippograph.graph.errors import InvalidInput

FloatArray = npt.NDArray[np.float64]
# A score that moved less than this is not rewritten: on a settled graph most runs then write
# only the nodes near a change (ranking cannot tell such differences apart anyway).
UNCHANGED = 1e-6


@dataclass(frozen=True, kw_only=True)
class PageRankConfig:
    """GDS ``gds.pageRank`` parameters, with GDS's defaults and ranges.

    damping: GDS ``dampingFactor``, in [0, 1).
    max_iterations: GDS ``maxIterations``, supersteps including the initial one, >= 1.
    tolerance: GDS ``tolerance``; a node's change at or below it is not propagated, >= 0.
    """

    damping: float = 0.85
    max_iterations: int = 20
    tolerance: float = 1e-7

    def __post_init__(self) -> None:
        if not 0.0 <= self.damping < 1.0:
            raise InvalidInput("damping", f"must be in [0, 1), got {self.damping}")
        if self.max_iterations < 1:
            raise InvalidInput("max_iterations", f"must be >= 1, got {self.max_iterations}")
        if not self.tolerance >= 0.0:
            raise InvalidInput("tolerance", f"must be >= 0, got {self.tolerance}")


DEFAULT_PAGERANK = PageRankConfig()


def pagerank(
    node_ids: Sequence[str],
    edges: Iterable[tuple[str, str, float]],
    config: PageRankConfig = DEFAULT_PAGERANK,
) -> dict[str, float]:
    """Score every node as GDS ``gds.pageRank`` with ``relationshipWeightProperty`` would.

    node_ids: every node of the graph, each once; nodes without edges score ``1 - damping``.
    edges: directed ``(source, target, weight)`` with weight >= 0. Duplicate edges add their
        weights; zero-weight edges are ignored. For unweighted PageRank pass weight 1.0.
    config: damping, iteration cap and tolerance (GDS defaults).

    Raises InvalidInput (a ValueError) for a repeated node id, an edge endpoint not in
    ``node_ids``, or a negative or non-finite weight.
    """
    index = _index(node_ids)
    transposed, out_weight = _adjacency(index, edges)
    scores = _iterate(transposed, out_weight, config)
    return dict(zip(node_ids, scores.tolist(), strict=True))


def normalized(scores: Mapping[str, float]) -> dict[str, float]:
    """Map scores onto 0..1 by dividing by the largest, for use as an ``importance`` signal.

    An empty mapping gives an empty dict; if no score is positive every node maps to 0.0.
    """
    top = max(scores.values(), default=0.0)
    if top <= 0.0:
        return dict.fromkeys(scores, 0.0)
    return {node: score / top for node, score in scores.items()}


def changed_rows(
    nodes: Sequence[Mapping[str, Any]], scores: Mapping[str, float]
) -> tuple[list[dict[str, Any]], int]:
    """The writes a run owes, sorted by id, and how many nodes keep their stored values.

    nodes: rows of ``id``, ``namespace`` and the stored ``score`` and ``importance``.
    scores: raw scores by id (a node without one scores 0.0); ``importance`` is the score
        divided by its namespace's highest (``normalized``).
    """
    by_namespace: dict[str, dict[str, float]] = defaultdict(dict)
    stored = {}
    for n in nodes:
        by_namespace[n["namespace"]][n["id"]] = scores.get(n["id"], 0.0)
        stored[n["id"]] = (n["score"], n["importance"])
    rows, unchanged = [], 0
    for members in by_namespace.values():
        for node, importance in normalized(members).items():
            score, old = stored[node]
            if _same(score, members[node]) and _same(old, importance):
                unchanged += 1
            else:
                rows.append({"id": node, "score": members[node], "importance": importance})
    rows.sort(key=lambda r: str(r["id"]))
    return rows, unchanged


def _same(old: Any, new: float) -> bool:
    return old is not None and abs(float(old) - new) <= UNCHANGED


def _index(node_ids: Sequence[str]) -> dict[str, int]:
    index = {node: position for position, node in enumerate(node_ids)}
    if len(index) != len(node_ids):
        raise InvalidInput("node_ids", "contains the same id more than once")
    return index


def _adjacency(
    index: Mapping[str, int], edges: Iterable[tuple[str, str, float]]
) -> tuple[sparse.csr_matrix, FloatArray]:
    """Return ``A`` with ``A[v, u] = w(u, v)`` (duplicates summed) and each node's out-weight."""
    sources: list[int] = []
    targets: list[int] = []
    weights: list[float] = []
    for source, target, weight in edges:
        if source not in index or target not in index:
            raise InvalidInput("edges", f"edge {source!r} -> {target!r} names an unknown node")
        if not (math.isfinite(weight) and weight >= 0.0):
            raise InvalidInput("edges", f"edge {source!r} -> {target!r} has weight {weight}")
        if weight > 0.0:
            sources.append(index[source])
            targets.append(index[target])
            weights.append(weight)
    n = len(index)
    src = np.asarray(sources, dtype=np.int64)
    values = np.asarray(weights, dtype=np.float64)
    dst = np.asarray(targets, dtype=np.int64)
    transposed = sparse.csr_matrix((values, (dst, src)), shape=(n, n))
    out_weight = np.bincount(src, weights=values, minlength=n).astype(np.float64)
    return transposed, out_weight


def _iterate(
    transposed: sparse.csr_matrix, out_weight: FloatArray, config: PageRankConfig
) -> FloatArray:
    """Replay GDS's Pregel supersteps: propagate changes, drop those at or below tolerance."""
    damping = config.damping
    inverse_weight = np.divide(
        1.0, out_weight, out=np.zeros_like(out_weight), where=out_weight > 0.0
    )
    rank = np.full(out_weight.shape[0], 1.0 - damping)
    sent = rank.copy()  # superstep 0 forwards the initial rank unconditionally
    for _ in range(1, config.max_iterations):
        delta: FloatArray = damping * (transposed @ (sent * inverse_weight))
        rank += delta
        sent = np.where(delta > config.tolerance, delta, 0.0)
        if not sent.any():
            break
    return rank
