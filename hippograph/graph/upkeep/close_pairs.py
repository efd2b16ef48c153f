"""Close pairs within a bucket of memories, computed in process on their unit embeddings:
per changed candidate its ``NEIGHBOURS_K`` nearest among the others, exactly for a bucket of up
to ``EXACT_MAX`` memories, through spherical k-means cells above that. Each block of cosines is
cut to its rows' nearest before any pair is collected (memory stays bounded on dense topics)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from hippograph.graph.write.decide import CONSIDER_MIN

NEIGHBOURS_K = 8
# Close pairs gathered before they are cut down to each candidate's nearest (bounds memory).
_PAIRS_HELD = 5_000_000
EXACT_MAX = 20_000  # memories in a bucket up to which close pairs are found exactly
PROBES = 8  # cells each memory is compared with above that (see probed_blocks)


Block = tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]


def neighbour_lists(
    sub: np.ndarray[Any, Any],
    dirty: np.ndarray[Any, Any],
    order: np.ndarray[Any, Any],
    instant: np.ndarray[Any, Any],
) -> tuple[np.ndarray[Any, Any], ...]:
    """(candidate, neighbour, cosine) rows as ``_nearest`` gives them, for every close pair
    (cosine >= CONSIDER_MIN) of ``sub`` with a ``dirty`` end: the newer end (greater
    ``order``) is the candidate, the older its neighbour; two of the same ``instant`` are each
    the other's neighbour."""
    size = len(sub)
    clean = np.ones(size, dtype=bool)
    clean[dirty] = False
    # A changed memory's own list: its NEIGHBOURS_K closest older (or same-instant) memories,
    # kept as a running top-k over the blocks its row appears in.
    k = min(NEIGHBOURS_K, max(size - 1, 1))
    best_cos = np.full((size, k), -np.inf, dtype=np.float32)
    best_col = np.full((size, k), -1, dtype=np.int64)
    theirs: list[tuple[np.ndarray[Any, Any], ...]] = []  # (candidate, neighbour, cosine)
    held = 0
    for me, cols, sims in _close_blocks(sub, dirty):
        o_me, o_col = order[me][:, None], order[cols][None, :]
        same = instant[me][:, None] == instant[cols][None, :]
        mine = np.where((o_col < o_me) | same, sims, np.float32(-np.inf))
        kk = min(k, mine.shape[1])
        top = np.argpartition(-mine, kk - 1, axis=1)[:, :kk]
        merged_cos = np.concatenate([best_cos[me], np.take_along_axis(mine, top, 1)], axis=1)
        merged_col = np.concatenate([best_col[me], cols[top]], axis=1)
        keep = np.argpartition(-merged_cos, k - 1, axis=1)[:, :k]
        best_cos[me] = np.take_along_axis(merged_cos, keep, 1)
        best_col[me] = np.take_along_axis(merged_col, keep, 1)
        # An unchanged newer (or same-instant) memory is a candidate with this one as its
        # neighbour; a changed one finds the pair from its own row.
        newer = clean[cols][None, :] & ((o_col > o_me) | same)
        at, col = np.nonzero(newer & (sims >= CONSIDER_MIN))
        theirs.append((cols[col], me[at], sims[at, col]))
        held += len(at)
        if held > _PAIRS_HELD:
            theirs = [nearest(theirs, size)]  # memory stays bounded
            held = len(theirs[0][0])
    at, j = np.nonzero(best_cos >= CONSIDER_MIN)
    return nearest([(at, best_col[at, j], best_cos[at, j]), *theirs], size)


def _close_blocks(sub: np.ndarray[Any, Any], dirty: np.ndarray[Any, Any]) -> Iterator[Block]:
    """(rows, columns, cosines) blocks covering every pair of a dirty row of ``sub`` with the
    rows it may be close to, a row's cosine with itself masked out. Exact (each dirty row
    against all) up to ``EXACT_MAX`` rows; above, the all-pairs product (100,000 rows: about
    4 TFLOP, minutes on two cores) gives way to a probed search."""
    blocks = probed_blocks if len(sub) > EXACT_MAX else exact_blocks
    yield from blocks(sub, dirty)


def exact_blocks(sub: np.ndarray[Any, Any], dirty: np.ndarray[Any, Any]) -> Iterator[Block]:
    """Each dirty row against every row."""
    every = np.arange(len(sub))
    for start in range(0, len(dirty), 256):
        block = dirty[start : start + 256]
        sims = sub[block] @ sub.T
        sims[np.arange(len(block)), block] = -np.inf  # a memory is not its own neighbour
        yield block, every, sims


def probed_blocks(sub: np.ndarray[Any, Any], dirty: np.ndarray[Any, Any]) -> Iterator[Block]:
    """Inverted-file search: the rows are split into about sqrt(n) cells around spherical
    k-means centroids (seeded, so a plan is reproducible), and each dirty row is compared with
    the rows of its ``PROBES`` nearest cells only. A pair is missed only when the other end
    lies outside all of them, which near-duplicates practically never do;
    ``bench/consolidate.py --check-pairs`` measures how many close pairs are found."""
    cells = max(2, int(np.sqrt(len(sub))))
    centroids = _spherical_kmeans(sub, cells, np.random.default_rng(0))
    home = np.empty(len(sub), dtype=np.int64)
    probes = np.empty((len(dirty), min(PROBES, cells)), dtype=np.int64)
    position = np.full(len(sub), -1, dtype=np.int64)
    position[dirty] = np.arange(len(dirty))
    for start in range(0, len(sub), 8192):
        scores = sub[start : start + 8192] @ centroids.T
        home[start : start + 8192] = np.argmax(scores, axis=1)
        rows = np.nonzero(position[start : start + 8192] >= 0)[0]
        if len(rows):
            near = np.argpartition(-scores[rows], probes.shape[1] - 1, axis=1)
            probes[position[start + rows]] = near[:, : probes.shape[1]]
    members = np.argsort(home, kind="stable")
    member_bounds = np.searchsorted(home[members], np.arange(cells + 1))
    asked = np.argsort(probes.ravel(), kind="stable")
    asked_bounds = np.searchsorted(probes.ravel()[asked], np.arange(cells + 1))
    for cell in range(cells):
        inside = members[member_bounds[cell] : member_bounds[cell + 1]]
        askers = dirty[asked[asked_bounds[cell] : asked_bounds[cell + 1]] // probes.shape[1]]
        if not len(inside) or not len(askers):
            continue
        for start in range(0, len(askers), 256):
            block = askers[start : start + 256]
            sims = sub[block] @ sub[inside].T
            sims[block[:, None] == inside[None, :]] = -np.inf
            yield block, inside, sims


def _spherical_kmeans(
    x: np.ndarray[Any, Any], k: int, rng: np.random.Generator, rounds: int = 8
) -> np.ndarray[Any, Any]:
    """``k`` unit centroids fitted on a sample of at most 64 rows per centroid."""
    sample = x[np.sort(rng.choice(len(x), min(len(x), 64 * k), replace=False))]
    centroids = sample[rng.choice(len(sample), k, replace=False)].copy()
    for _ in range(rounds):
        assign = np.argmax(sample @ centroids.T, axis=1)
        sums = np.zeros_like(centroids)
        np.add.at(sums, assign, sample)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        centroids = np.where(norms > 0, sums / np.where(norms == 0, 1, norms), centroids)
    return centroids


def nearest(
    found: Sequence[tuple[np.ndarray[Any, Any], ...]], size: int
) -> tuple[np.ndarray[Any, Any], ...]:
    """(candidate, neighbour, cosine) rows: per candidate its ``NEIGHBOURS_K`` closest distinct
    neighbours, closest first (ties by position), candidates in position order. A pair seen
    from both ends (both changed) counts once, at its best cosine."""
    if not found:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0, dtype=np.float32)
    cand, near, cos = (np.concatenate([f[k] for f in found]) for k in range(3))
    ranked = np.lexsort((near, -cos, cand))
    cand, near, cos = cand[ranked], near[ranked], cos[ranked]
    _, first = np.unique(cand * size + near, return_index=True)
    keep = np.sort(first)
    cand, near, cos = cand[keep], near[keep], cos[keep]
    if not len(cand):
        return cand, near, cos
    starts = np.r_[0, np.nonzero(np.diff(cand))[0] + 1]
    rank = np.arange(len(cand)) - np.repeat(starts, np.diff(np.r_[starts, len(cand)]))
    top = rank < NEIGHBOURS_K
    return cand[top], near[top], cos[top]
