"""Rebuild: the memory layer from the episode log, the explicit remembers and the tombstones."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from hippograph.graph import clock, memories
from hippograph.graph.errors import NotFound
from hippograph.graph.model import MemoryFilter, NewMemory, to_iso
from hippograph.graph.recall import edits, feedback
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import episodes, rebuild
from tests.graph.log_fixtures import active, every, log_runtime, remember, turn


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


def states(rt: Runtime, ns: str) -> dict[str, tuple[str, str, int]]:
    """Every memory (active or not) by id: content, status, strength."""
    return {m.id: (m.content, m.status, m.strength) for m in every(rt, ns)}


def test_rebuild_keeps_the_ids_of_the_memories_it_reconstructs(rt: Runtime, namespace: str) -> None:
    ingest(
        rt,
        namespace,
        turn("s1", 0, "I work at Google as an engineer."),
        turn("s1", 1, "I adopted a puppy named Max."),
        turn("s1", 2, " ".join(f"garden{i}" for i in range(3400))),  # over 32 KiB: pieces
    )
    given = remember(
        rt,
        namespace,
        NewMemory(content="Sam prefers tea over coffee", tags=("drinks",)),
        NewMemory(content="Sam lives in Paris"),
    )
    again = remember(rt, namespace, NewMemory(content="Sam prefers tea over coffee"))  # NOOP
    moved = remember(rt, namespace, NewMemory(content="Sam now lives in Lima"))  # SUPERSEDE
    ingest(rt, namespace, turn("s2", 0, "I now work at Microsoft as an engineer."))
    before = states(rt, namespace)
    assert again[0].action == "NOOP" and again[0].memory.id == given[0].memory.id
    assert moved[0].action == "SUPERSEDE" and moved[0].target == given[1].memory.id
    assert sum(1 for c, _, _ in before.values() if "garden" in c) > 1  # the long turn's pieces
    do_rebuild(rt, namespace)
    assert states(rt, namespace) == before
    for result in (*given, *again, *moved):
        assert memories.get(rt.store, namespace, result.memory.id).content == result.memory.content
    do_rebuild(rt, namespace)
    assert states(rt, namespace) == before


def edited(rt: Runtime, ns: str) -> tuple[object, ...]:
    """What the edits change: per memory its status, successor, tags and ratings; the
    explicit links with their weight and confidence."""
    rows = rt.store.driver.execute_query(
        "MATCH (m:Memory) WHERE m.namespace = $ns "
        "RETURN m.id AS id, m.status AS status, m.helpful_count AS up, "
        "m.unhelpful_count AS down",
        ns=ns,
        database_=rt.store.database,
    ).records
    links = rt.store.driver.execute_query(
        "MATCH (a:Memory)-[r:RELATES_TO]->(b:Memory) WHERE a.namespace = $ns "
        "RETURN a.id AS a, b.id AS b, r.weight AS w, r.confidence AS c",
        ns=ns,
        database_=rt.store.database,
    ).records
    by_id = {m.id: m for m in every(rt, ns)}
    nodes = sorted(
        (r["id"], r["status"], by_id[r["id"]].superseded_by, tuple(sorted(by_id[r["id"]].tags)),
         r["up"], r["down"])
        for r in rows
    )  # fmt: skip
    return tuple(nodes), tuple(sorted((r["a"], r["b"], r["w"], r["c"]) for r in links))


def test_rebuild_replays_the_edits_made_since(rt: Runtime, namespace: str) -> None:
    ingest(rt, namespace, turn("s1", 0, "I adopted a puppy named Max."))
    [max_] = active(rt, namespace)
    tea, paris, lima = (
        r.memory
        for r in remember(
            rt,
            namespace,
            NewMemory(content="Sam prefers tea over coffee", tags=("drinks",)),
            NewMemory(content="Sam's office is in Paris"),
            NewMemory(content="Sam's office is in Lima"),
        )
    )
    memories.supersede(rt.store, namespace, paris.id, lima.id, reason="the office moved")
    memories.link(rt.store, namespace, tea.id, max_.id, weight=0.4, confidence=0.5)
    memories.link(rt.store, namespace, tea.id, max_.id, weight=0.6)  # reinforced: +0.1
    memories.tag(rt.store, namespace, max_.id, ["pets", "family"])
    memories.untag(rt.store, namespace, tea.id, ["drinks"])
    memories.tag(rt.store, namespace, tea.id, ["morning"])
    feedback.feedback(rt.store, namespace, tea.id, helpful=True)
    feedback.feedback(rt.store, namespace, lima.id, helpful=False)
    with pytest.raises(NotFound):  # refused: nothing logged
        memories.tag(rt.store, namespace, str(uuid.uuid4()), ["ghost"])
    before, ids = edited(rt, namespace), states(rt, namespace)
    assert any(status == "superseded" for _, status, *_ in before[0])
    result = rebuild.rebuild(rt.store, rt.embedder, namespace, policy=rt.policy, edits=edits.replay)
    assert edited(rt, namespace) == before and states(rt, namespace) == ids
    assert "edit_skipped" not in result.actions
    assert result.actions["edit_link"] == 2 and result.actions["edit_feedback"] == 2
    # Without the edits (None), the log's remembers alone: the supersession is gone.
    do_rebuild(rt, namespace)
    assert memories.get(rt.store, namespace, paris.id).status == "active"


def test_buffered_turns_are_replayed_when_they_were_extracted(rt: Runtime, namespace: str) -> None:
    """A turn waits in the buffer while a remember states the same fact: the remember's memory
    came first, the turn's fact reinforced it. Replayed in that order, the id survives."""
    said = turn("s1", 0, "I went hiking with Ana on Saturday.")
    episodes.ingest(rt.store, rt.embedder, namespace, [said], policy=rt.policy)  # buffered
    assert episodes.pending(rt.store, namespace)
    [given] = remember(rt, namespace, NewMemory(content="Sam: I went hiking with Ana on Saturday."))
    episodes.extract_pending(rt.store, rt.embedder, namespace, policy=rt.policy, flush=True)
    before = states(rt, namespace)
    assert before[given.memory.id][2] == 2  # the turn's fact reinforced the remembered one
    do_rebuild(rt, namespace)
    assert states(rt, namespace) == before


def test_memories_remembered_before_ids_were_derived_keep_theirs(
    rt: Runtime, namespace: str
) -> None:
    """A store written by an older version: its remembers created memories under random ids
    (recorded in their decisions). The first rebuild gives them back, and so does the next."""
    given = remember(
        rt,
        namespace,
        NewMemory(content="Sam prefers tea over coffee"),
        NewMemory(content="Sam's office is in Lima"),
    )
    old = {}
    for result in given:
        old[result.memory.id] = str(uuid.uuid4())
        rt.store.driver.execute_query(
            "MATCH (m:Memory {id: $id}) SET m.id = $old "
            "WITH m MATCH (d:Decision {memory_id: $id}) SET d.memory_id = $old",
            id=result.memory.id,
            old=old[result.memory.id],
            database_=rt.store.database,
        )
    before = states(rt, namespace)
    assert set(before) == set(old.values())
    do_rebuild(rt, namespace)
    assert states(rt, namespace) == before
    do_rebuild(rt, namespace)  # the decisions are the rebuild's now: the event kept the ids
    assert states(rt, namespace) == before


def stamps(rt: Runtime, ns: str) -> dict[str, tuple[str | None, ...]]:
    return {
        m.id: (m.content, m.status, m.recorded_at, m.superseded_at, m.updated_at)
        for m in every(rt, ns)
    }


def test_rebuild_replays_each_write_at_the_time_it_was_made(rt: Runtime, namespace: str) -> None:
    """The service-clock stamps a rebuild leaves are those of the writes it replays, so asOf
    answers after a rebuild as before it; another thread keeps the service clock meanwhile."""
    t0 = datetime(2032, 5, 1, tzinfo=UTC)
    try:
        clock.set_now(t0)
        paris, lima = (
            r.memory
            for r in remember(
                rt, namespace, NewMemory(content="Sam's office is in Paris"),
                NewMemory(content="Sam's office is in Lima"),
            )
        )  # fmt: skip
        clock.set_now(t0 + timedelta(days=1))
        ingest(rt, namespace, turn("s1", 0, "I adopted a puppy named Max."))
        clock.set_now(t0 + timedelta(days=2))
        memories.supersede(rt.store, namespace, paris.id, lima.id, reason="the office moved")
        before = stamps(rt, namespace)
        clock.set_now(t0 + timedelta(days=30))
        rebuild.rebuild(rt.store, rt.embedder, namespace, policy=rt.policy, edits=edits.replay)
        assert stamps(rt, namespace) == before
        assert before[paris.id][2] == to_iso(t0)  # learned then, not at the rebuild
        assert before[paris.id][3] == to_iso(t0 + timedelta(days=2))
        [puppy] = [m for m in every(rt, namespace) if "Max" in m.content]
        assert puppy.recorded_at == to_iso(t0 + timedelta(days=1))
        then = memories.list_memories(
            rt.store, namespace, MemoryFilter(status=None), first=50,
            as_of=to_iso(t0 + timedelta(hours=36)),
        )  # fmt: skip
        assert {m.id for m in then.items} == {paris.id, lima.id, puppy.id}
        with clock.replaying(t0):
            assert clock.now() == t0
        assert clock.now() == t0 + timedelta(days=30)  # the service clock, outside the block
    finally:
        clock.set_now(None)
