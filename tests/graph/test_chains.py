"""Supersession is a set of chains (#20 point 5): no cycles, a superseded memory is replaced at
its chain's head, and history walks the whole chain; against the real engines."""

from __future__ import annotations

import pytest

from hippograph.graph import history, memories
from hippograph.graph.errors import SupersedeCycle
from hippograph.graph.model import MemoryFilter, NewMemory
from hippograph.graph.recall import retrieval
from hippograph.graph.recall.recipes import DEFAULT_CASCADE
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath

CITIES = ("Boston", "Denver", "Austin", "Seattle")


def remember(rt: Runtime, ns: str, *texts: str) -> list[str]:
    items = [NewMemory(content=t) for t in texts]
    # One call per text: each decision sees the memories stored before it.
    return [
        writepath.remember(rt.store, rt.embedder, ns, [item], policy=rt.policy)[0].memory.id
        for item in items
    ]


def statuses(rt: Runtime, ns: str) -> dict[str, str]:
    page = memories.list_memories(rt.store, ns, MemoryFilter(status=None), first=100)
    return {m.id: m.status for m in page.items}


def test_a_supersede_closing_a_cycle_is_refused_and_writes_nothing(
    any_runtime: Runtime, namespace: str
) -> None:
    x, y = remember(any_runtime, namespace, "Ana drinks tea", "The office opens at nine")
    memories.supersede(any_runtime.store, namespace, x, y)
    with pytest.raises(SupersedeCycle) as raised:
        memories.supersede(any_runtime.store, namespace, y, x)
    assert (raised.value.old_id, raised.value.new_id) == (y, x)
    assert x in str(raised.value) and y in str(raised.value)
    assert raised.value.extensions()["code"] == "SUPERSEDE_CYCLE"
    assert statuses(any_runtime, namespace) == {x: "superseded", y: "active"}
    # Repeating the supersede that holds is idempotent.
    memories.supersede(any_runtime.store, namespace, x, y)
    assert statuses(any_runtime, namespace) == {x: "superseded", y: "active"}


def test_a_longer_cycle_is_refused_too(any_runtime: Runtime, namespace: str) -> None:
    a, b, c = remember(any_runtime, namespace, "Ana drinks tea", "Bo rides a bike", "Cy sings")
    memories.supersede(any_runtime.store, namespace, a, b)
    memories.supersede(any_runtime.store, namespace, b, c)
    for old, new in ((c, a), (b, a), (c, b)):
        with pytest.raises(SupersedeCycle):
            memories.supersede(any_runtime.store, namespace, old, new)
    assert statuses(any_runtime, namespace) == {a: "superseded", b: "superseded", c: "active"}


def test_superseding_a_superseded_memory_lands_on_its_chain_head(
    any_runtime: Runtime, namespace: str
) -> None:
    x, y, z = remember(any_runtime, namespace, "Ana drinks tea", "Bo rides a bike", "Cy sings")
    memories.supersede(any_runtime.store, namespace, x, y)
    memories.supersede(any_runtime.store, namespace, x, z)
    assert statuses(any_runtime, namespace) == {x: "superseded", y: "superseded", z: "active"}
    assert memories.get(any_runtime.store, namespace, x).superseded_by == y
    assert memories.get(any_runtime.store, namespace, y).superseded_by == z
    h = history.history(any_runtime.store, namespace, z)
    assert {r.id for r in h.supersedes} == {x, y}


def chain_of_four(rt: Runtime, ns: str) -> list[str]:
    ids = remember(rt, ns, *(f"Priya lives in {city}" for city in CITIES))
    for old, new in zip(ids, ids[1:], strict=False):
        memories.supersede(rt.store, ns, old, new, reason="moved")
    return ids


def test_history_walks_the_whole_chain(any_runtime: Runtime, namespace: str) -> None:
    ids = chain_of_four(any_runtime, namespace)
    assert [s for i, s in statuses(any_runtime, namespace).items() if i != ids[-1]] == [
        "superseded"
    ] * 3
    newest = history.history(any_runtime.store, namespace, ids[-1])
    assert {r.id for r in newest.supersedes} == set(ids[:-1])
    assert newest.superseded_by == ()
    oldest = history.history(any_runtime.store, namespace, ids[0])
    assert {r.id for r in oldest.superseded_by} == set(ids[1:])


def test_recall_include_history_walks_the_whole_chain(any_runtime: Runtime, namespace: str) -> None:
    ids = chain_of_four(any_runtime, namespace)
    request = retrieval.RecallRequest(context="Where does Priya live?", k=5, include_history=True)
    result = retrieval.recall(
        any_runtime.store, any_runtime.embedder, namespace, request, DEFAULT_CASCADE
    )
    got = [i.memory.id for i in result.items]
    assert got == [ids[-1]]
    assert [h.content for h in result.items[0].history] == [
        f"Priya lives in {city}" for city in reversed(CITIES[:-1])
    ]
