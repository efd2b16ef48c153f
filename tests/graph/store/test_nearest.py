"""The shared vector-index lookup: the index asked for more than wanted, an exact scan where it
leaves too few."""

from __future__ import annotations

import pytest

from hippograph.graph.model import NewMemory
from hippograph.graph.runtime import Runtime
from hippograph.graph.store import nearest
from hippograph.graph.store.store import vector
from hippograph.graph.write import writepath
from tests.graph.recall.test_retrieval import reads_of


def test_the_index_is_asked_for_k_times_the_oversample_at_least_the_floor(
    runtime: Runtime,
) -> None:
    over = runtime.store.dialect.vector_oversample
    assert nearest.candidates(runtime.store, 8, 50) == max(8 * over, 50)
    assert nearest.candidates(runtime.store, 1, 50) == 50


def test_the_exact_scan_answers_where_the_index_leaves_fewer_than_k(
    runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = ["Ada keeps bees on the roof", "The hives gave honey", "Bees swarm in May"]
    items = [NewMemory(content=t) for t in texts]
    writepath.remember(runtime.store, runtime.embedder, namespace, items, policy=runtime.policy)
    asked = reads_of(runtime, monkeypatch)
    params = {
        "namespace": namespace,
        "statuses": ["active"],
        "embedding": vector(runtime.embedder.embed(["bees"])[0]),
        "as_of": None,
        "scopes": None,  # every scope (graph.model.scopes gives a caller's)
    }
    search, exact = "memory/vector_search", "memory/vector_search_exact"
    two = nearest.nearest(runtime.store, search, exact, 2, floor=50, **params)
    assert len(two) == 2 and asked == [search]
    asked.clear()
    every = nearest.nearest(runtime.store, search, exact, 5, floor=50, **params)
    assert len(every) == 3 and asked == [search, exact]
    assert [r["id"] for r in every][:2] == [r["id"] for r in two]
    asked.clear()
    found = nearest.nearest(
        runtime.store, search, exact, 5, floor=50, more=lambda _: False, **params
    )
    assert len(found) == 3 and asked == [search]
