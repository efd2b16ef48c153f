"""Nearest neighbours through a vector index shared by every namespace: the index is asked for
more hits than wanted (the statement keeps one namespace's, in scope), and an exact scan answers
where that leaves too few."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hippograph.graph.store.store import Row, Store


def candidates(store: Store, k: int, floor: int) -> int:
    """How many hits to ask the index for to keep ``k`` after filtering: ``k`` x the dialect's
    ``vector_oversample``, at least ``floor`` (a small ``k`` in a crowded index)."""
    return max(k * store.dialect.vector_oversample, floor)


def nearest(
    store: Store,
    indexed: str,
    exact: str,
    k: int,
    *,
    floor: int,
    more: Callable[[list[Row]], bool] | None = None,
    **params: Any,
) -> list[Row]:
    """The ``k`` nearest rows by the statement ``indexed`` (given ``candidates`` and ``k``),
    or by ``exact`` (an exact scan, given ``k``) when the index left fewer than ``k``.

    Args:
        indexed, exact: statement names; both take ``params`` and answer the same columns.
        floor: the least number of hits the index is asked for (`candidates`).
        more: whether the exact scan may find more than the index's rows (e.g. a count of
            what it would scan); None: it is run whenever the index left fewer than ``k``.
    """
    rows = store.read(indexed, candidates=candidates(store, k, floor), k=k, **params)
    if len(rows) < k and (more is None or more(rows)):
        rows = store.read(exact, k=k, **params)
    return rows
