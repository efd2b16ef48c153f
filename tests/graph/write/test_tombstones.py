"""Forget means forget (#20 point 6): a tombstone blocks the fact said by another speaker, a
near-duplicate restatement, and keeps no text; through ingest, rebuild and consolidation."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hippograph.graph import memories
from hippograph.graph.model import NewMemory, content_hash
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import episodes, rebuild
from hippograph.jobs.consolidate import consolidate_now
from tests.graph.log_fixtures import active, log_runtime, remember, turn

HIKING = "Hiking in the mountains is my favourite thing."


@pytest.fixture
def rt(runtime: Runtime, namespace: str) -> Iterator[Runtime]:
    yield from log_runtime(runtime, namespace)


def ingest(rt: Runtime, ns: str, *turns: episodes.NewTurn) -> episodes.IngestResult:
    return episodes.ingest(rt.store, rt.embedder, ns, list(turns), policy=rt.policy, flush=True)


def hiking(rt: Runtime, ns: str) -> list[str]:
    return [m.content for m in active(rt, ns) if "hiking" in m.content.lower()]


def forget_hiking(rt: Runtime, ns: str, *, hard: bool) -> str:
    (memory,) = [m for m in active(rt, ns) if "hiking" in m.content.lower()]
    memories.forget(rt.store, ns, memory.id, hard=hard)
    return memory.content


@pytest.mark.parametrize("hard", [True, False])
def test_a_forgotten_fact_said_by_another_speaker_stays_forgotten(
    rt: Runtime, namespace: str, hard: bool
) -> None:
    ingest(rt, namespace, turn("s1", 0, HIKING, speaker="Caroline"))
    forgotten = forget_hiking(rt, namespace, hard=hard)
    assert forgotten == f"Caroline: {HIKING}"
    done = ingest(
        rt,
        namespace,
        turn("s2", 0, HIKING, speaker="Melanie"),
        turn("s2", 1, "I adopted a puppy named Max.", speaker="Melanie"),
    )
    assert done.actions.get("SKIP") == 1
    assert hiking(rt, namespace) == []
    assert len(active(rt, namespace)) == 1  # the puppy
    # Rebuild replays both sessions: the forget, made after them, still holds.
    rebuild.rebuild(rt.store, rt.embedder, namespace, policy=rt.policy)
    assert hiking(rt, namespace) == []
    # An explicit remember is the user asking again: it is stored.
    (again,) = remember(rt, namespace, NewMemory(content=HIKING))
    assert again.action == "ADD" and hiking(rt, namespace) == [HIKING]


@pytest.mark.parametrize("hard", [True, False])
def test_a_near_duplicate_restatement_stays_forgotten(
    rt: Runtime, namespace: str, hard: bool
) -> None:
    ingest(rt, namespace, turn("s1", 0, HIKING, speaker="Caroline"))
    forget_hiking(rt, namespace, hard=hard)
    # Cosine 0.965 to the forgotten text with the bundled model, not the same hash.
    restated = "Mountain hiking is my favourite thing to do."
    done = ingest(rt, namespace, turn("s2", 0, restated, speaker="Caroline"))
    assert done.actions == {"SKIP": 1}
    assert hiking(rt, namespace) == []
    # A changed value of another attribute is a new fact, not a restatement.
    other = "Swimming in cold lakes is what I hate most."
    ingest(rt, namespace, turn("s3", 0, other, speaker="Caroline"))
    assert [m.content for m in active(rt, namespace)] == [f"Caroline: {other}"]


def test_the_tombstone_of_a_hard_forget_keeps_hashes_and_embedding_not_text(
    rt: Runtime, namespace: str
) -> None:
    ingest(rt, namespace, turn("s1", 0, HIKING, speaker="Caroline"))
    forget_hiking(rt, namespace, hard=True)
    (tombstone,) = [r["props"] for r in rt.store.read("export/tombstones", namespace=namespace)]
    assert tombstone["content_hash"] == content_hash(f"Caroline: {HIKING}")
    assert tombstone["body_hash"] == content_hash(HIKING)
    assert len(tombstone["embedding"]) == rt.embedder.dimensions
    assert not any(isinstance(v, str) and "iking" in v for v in tombstone.values())


def test_consolidation_does_not_bring_a_forgotten_fact_back(rt: Runtime, namespace: str) -> None:
    ingest(
        rt,
        namespace,
        turn("s1", 0, HIKING, speaker="Caroline"),
        turn("s1", 1, "Mountain hiking is my favourite thing to do.", speaker="Melanie"),
    )
    for memory in [m for m in active(rt, namespace) if "hiking" in m.content.lower()]:
        memories.forget(rt.store, namespace, memory.id)
    consolidate_now(rt, namespace=namespace, force=True)
    assert hiking(rt, namespace) == []


def _user(session: str, index: int, text: str) -> episodes.NewTurn:
    return episodes.NewTurn(
        session_id=session, turn_index=index, role="user", text=text,
        timestamp=f"2024-02-{index + 1:02d}T10:00:00Z",
    )  # fmt: skip


def test_a_restatement_in_other_words_stays_forgotten_and_a_new_value_does_not(
    rt: Runtime, namespace: str
) -> None:
    """Forgotten through the API (which gives the embedder): "the fourteenth of March, by the
    way" restates "14 March" (text/restate.py); another date, or a sister's birthday, is new."""
    [birthday] = memories_of(rt, namespace, NewMemory(content="My birthday is on 14 March."))
    memories.forget(rt.store, namespace, birthday, hard=True, embedder=rt.embedder)
    ingest(
        rt,
        namespace,
        _user("later", 0, "My birthday, it's the fourteenth of March, by the way."),
        _user("later", 1, "My sister's birthday is on 14 March too."),
        _user("later", 2, "My partner's favourite cake is carrot cake."),
    )
    said = [m.content for m in active(rt, namespace)]
    assert not any("fourteenth" in c for c in said)
    assert any("sister's birthday" in c for c in said)


def memories_of(rt: Runtime, ns: str, *items: NewMemory) -> list[str]:
    return [r.memory.id for r in remember(rt, ns, *items)]
