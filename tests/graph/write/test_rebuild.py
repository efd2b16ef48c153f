"""Rebuild: the memory layer from the episode log, the explicit remembers and the tombstones."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hippograph.graph import memories
from hippograph.graph.model import NewMemory
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import episodes, rebuild
from tests.graph.log_fixtures import active, log_runtime, remember, turn


@pytest.fixture
def rt(runtime: Runtime, namespace: str) -> Iterator[Runtime]:
    yield from log_runtime(runtime, namespace)


def facts(rt: Runtime, ns: str) -> set[tuple[str, str, int]]:
    return {(m.content, m.memory_type, m.strength) for m in active(rt, ns)}


def ingest(rt: Runtime, ns: str, *turns: episodes.NewTurn) -> None:
    episodes.ingest(rt.store, rt.embedder, ns, list(turns), policy=rt.policy, flush=True)


def do_rebuild(rt: Runtime, ns: str) -> rebuild.RebuildResult:
    return rebuild.rebuild(rt.store, rt.embedder, ns, policy=rt.policy)


def test_rebuild_yields_the_same_active_facts(rt: Runtime, namespace: str) -> None:
    ingest(
        rt,
        namespace,
        turn("s1", 0, "I work at Google as an engineer."),
        turn("s1", 1, "My manager is Jon Smith."),
        turn("s1", 2, "I adopted a puppy named Max."),
    )
    remember(rt, namespace, NewMemory(content="Sam prefers tea over coffee", tags=("drinks",)))
    ingest(
        rt,
        namespace,
        turn("s2", 0, "I now work at Microsoft as an engineer."),
        turn("s2", 1, "Actually, my manager is John Smith, not Jon."),
    )
    remember(rt, namespace, NewMemory(content="Sam prefers tea over coffee"))
    before = facts(rt, namespace)
    result = do_rebuild(rt, namespace)
    assert facts(rt, namespace) == before
    assert result.episodes == 5 and result.remember_events == 2 and result.active == len(before)
    assert not any("Jon Smith" in content for content, _, _ in before)
    # A second rebuild is a fixed point.
    do_rebuild(rt, namespace)
    assert facts(rt, namespace) == before


def test_forgotten_facts_stay_forgotten_and_a_later_remember_wins(
    rt: Runtime, namespace: str
) -> None:
    ingest(rt, namespace, turn("s1", 0, "I have a secret tattoo of a dragon."))
    [tattoo] = active(rt, namespace)
    memories.forget(rt.store, namespace, tattoo.id)
    [pin] = remember(rt, namespace, NewMemory(content="The bike lock code is 4312"))
    memories.forget(rt.store, namespace, pin.memory.id, hard=True)
    remember(rt, namespace, NewMemory(content="Sam's favourite colour is green"))
    [again] = remember(rt, namespace, NewMemory(content="Sam's favourite colour is green."))
    memories.forget(rt.store, namespace, again.memory.id)
    remember(rt, namespace, NewMemory(content="Sam's favourite colour is green"))  # asked again
    before = facts(rt, namespace)
    assert {c for c, _, _ in before} == {"Sam's favourite colour is green"}
    do_rebuild(rt, namespace)
    assert {c for c, _, _ in facts(rt, namespace)} == {"Sam's favourite colour is green"}
