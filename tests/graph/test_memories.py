"""The Memory aggregate against real engines (the embedded one always, Neo4j when configured)."""

from __future__ import annotations

import uuid

import pytest

from hippograph.graph import memories
from hippograph.graph.errors import BatchTooLarge, InvalidInput, NotFound
from hippograph.graph.model import MemoryFilter, NewMemory, Source, content_hash
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath


def remember(rt: Runtime, ns: str, *items: NewMemory) -> list[memories.RememberResult]:
    return writepath.remember(rt.store, rt.embedder, ns, list(items), policy=rt.policy)


def count(rt: Runtime, ns: str, status: str | None = "active", project: str | None = None) -> int:
    flt = MemoryFilter(status=status)
    return len(memories.list_memories(rt.store, ns, flt, first=500, project=project).items)


def test_remember_round_trips_every_field(any_runtime: Runtime, namespace: str) -> None:
    item = NewMemory(
        content="Deploys go through the staging cluster first",
        memory_type="procedure",
        scope="project",
        project="atlas",
        provenance="observed",
        source=Source(
            session_id="s1", messages="4-7", file_paths=("ops/deploy.md",), snippet="ctx"
        ),
        confidence=0.8,
        trust_score=0.9,
        tags=("Deploy", "ops"),
        steps=("build", "push to staging", "promote"),
        prerequisites=("green CI",),
        warnings=("never on Friday",),
        occurred_at="2024-05-01T10:00:00Z",
    )
    [result] = remember(any_runtime, namespace, item)
    assert result.created
    m = memories.get(any_runtime.store, namespace, result.memory.id)
    assert m.content == item.content
    assert m.content_hash == content_hash(item.content)
    assert (m.memory_type, m.scope, m.project, m.provenance) == (
        "procedure",
        "project",
        "atlas",
        "observed",
    )
    assert m.source.file_paths == ("ops/deploy.md",) and m.source.messages == "4-7"
    assert m.steps == ("build", "push to staging", "promote")
    assert m.prerequisites == ("green CI",) and m.warnings == ("never on Friday",)
    assert {"deploy", "ops", "path:ops/deploy.md"} <= set(m.tags)  # given, plus inferred
    assert (m.confidence, m.trust_score, m.strength, m.status) == (0.8, 0.9, 1, "active")
    assert m.created_at == "2024-05-01T10:00:00Z"
    assert result.memory == m  # returned as written, without a read-back: the same memory


def test_identical_content_reinforces_instead_of_duplicating(
    any_runtime: Runtime, namespace: str
) -> None:
    [first] = remember(
        any_runtime, namespace, NewMemory(content="Ana prefers dark mode", session_id="a")
    )
    [again] = remember(
        any_runtime, namespace, NewMemory(content="  ana prefers DARK mode. ", session_id="b")
    )
    assert not again.created
    assert again.memory.id == first.memory.id
    assert again.memory.strength == 2
    assert again.memory.reinforcements[0].session_id == "b"
    assert count(any_runtime, namespace) == 1


def test_duplicates_inside_one_batch_collapse(runtime: Runtime, namespace: str) -> None:
    results = remember(runtime, namespace, NewMemory(content="x is 1"), NewMemory(content="X is 1"))
    assert [r.created for r in results] == [True, False]
    assert results[0].memory.id == results[1].memory.id
    assert results[1].memory.strength == 2
    assert results[0].memory == results[1].memory  # changed later in the batch: read back
    assert count(runtime, namespace) == 1


def test_same_content_in_another_scope_is_another_memory(runtime: Runtime, namespace: str) -> None:
    remember(runtime, namespace, NewMemory(content="use tabs"))
    [other] = remember(
        runtime, namespace, NewMemory(content="use tabs", scope="project", project="p")
    )
    assert other.created
    assert count(runtime, namespace, project="p") == 2  # as a caller of project p sees them


def test_namespaces_are_isolated(any_runtime: Runtime, namespace: str) -> None:
    other = namespace + "-other"
    try:
        [mine] = remember(
            any_runtime, namespace, NewMemory(content="The vault code is kept by Rita")
        )
        assert (
            memories.search(any_runtime.store, any_runtime.embedder, other, "vault code", 5) == []
        )
        with pytest.raises(NotFound):
            memories.get(any_runtime.store, other, mine.memory.id)
        [theirs] = remember(any_runtime, other, NewMemory(content="The vault code is kept by Rita"))
        assert theirs.created and theirs.memory.id != mine.memory.id
        with pytest.raises(NotFound):
            memories.link(any_runtime.store, namespace, mine.memory.id, theirs.memory.id)
    finally:
        any_runtime.store.driver.execute_query(
            "MATCH (n) WHERE n.namespace = $ns DETACH DELETE n",
            ns=other,
            database_=any_runtime.store.database,
        )


def test_search_ranks_by_meaning(any_runtime: Runtime, namespace: str) -> None:
    remember(
        any_runtime,
        namespace,
        NewMemory(content="Maria works as a nurse at the city hospital"),
        NewMemory(content="The team standup is at 9:30 every morning"),
        NewMemory(content="Paris is the capital of France"),
    )
    found = memories.search(
        any_runtime.store, any_runtime.embedder, namespace, "what is Maria's job?", 2
    )
    assert found[0].memory.content.startswith("Maria works as a nurse")
    assert 0.3 < found[0].score <= 1.0
    assert found[0].score > found[1].score


def test_search_falls_back_to_exact_when_the_index_is_crowded(
    runtime: Runtime, namespace: str
) -> None:
    # Another tenant with many near-identical memories fills the index's candidate window.
    crowd = namespace + "-crowd"
    try:
        remember(
            runtime,
            crowd,
            *[NewMemory(content=f"The cat sat on mat number {i}") for i in range(120)],
        )
        remember(runtime, namespace, NewMemory(content="A cat sat on a mat"))
        found = memories.search(
            runtime.store, runtime.embedder, namespace, "the cat sat on the mat", 3
        )
        assert [s.memory.content for s in found] == ["A cat sat on a mat"]
    finally:
        runtime.store.driver.execute_query(
            "MATCH (n) WHERE n.namespace = $ns DETACH DELETE n",
            ns=crowd,
            database_=runtime.store.database,
        )


def test_list_filters_and_paginates(any_runtime: Runtime, namespace: str) -> None:
    items = [NewMemory(content=f"note {i}", tags=("even",) if i % 2 == 0 else ()) for i in range(7)]
    items.append(NewMemory(content="Never commit secrets", memory_type="negative"))
    remember(any_runtime, namespace, *items)
    store = any_runtime.store
    seen, cursor = [], None
    while True:
        page = memories.list_memories(store, namespace, MemoryFilter(), first=3, after=cursor)
        seen += [m.content for m in page.items]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert sorted(seen) == sorted(i.content for i in items)
    assert len(seen) == len(set(seen)) == 8
    tagged = memories.list_memories(store, namespace, MemoryFilter(tag="EVEN"))
    assert sorted(m.content for m in tagged.items) == ["note 0", "note 2", "note 4", "note 6"]
    negative = memories.list_memories(store, namespace, MemoryFilter(memory_type="negative"))
    assert [m.content for m in negative.items] == ["Never commit secrets"]
    text = memories.list_memories(store, namespace, MemoryFilter(text="SECRETS"))
    assert [m.content for m in text.items] == ["Never commit secrets"]


def test_forget_archives_and_keeps_a_tombstone(any_runtime: Runtime, namespace: str) -> None:
    [r] = remember(any_runtime, namespace, NewMemory(content="old phone number is 555-0100"))
    memories.forget(any_runtime.store, namespace, r.memory.id, reason="user asked")
    m = memories.get(any_runtime.store, namespace, r.memory.id)
    assert m.status == "archived"
    assert count(any_runtime, namespace) == 0
    assert (
        memories.search(any_runtime.store, any_runtime.embedder, namespace, "phone number", 5) == []
    )
    tomb = any_runtime.store.driver.execute_query(
        "MATCH (t:Tombstone {memory_id: $id}) RETURN t.content_hash AS h, t.reason AS r",
        id=r.memory.id,
        database_=any_runtime.store.database,
    ).records
    assert [(t["h"], t["r"]) for t in tomb] == [(m.content_hash, "user asked")]
    # Remembering it again explicitly is allowed and creates a new active memory.
    [again] = remember(any_runtime, namespace, NewMemory(content="old phone number is 555-0100"))
    assert again.created and again.memory.id != r.memory.id


def test_hard_delete_removes_node_and_edges(any_runtime: Runtime, namespace: str) -> None:
    a, b = remember(
        any_runtime, namespace, NewMemory(content="a", tags=("t",)), NewMemory(content="b")
    )
    memories.link(any_runtime.store, namespace, a.memory.id, b.memory.id)
    memories.forget(any_runtime.store, namespace, a.memory.id, hard=True)
    with pytest.raises(NotFound):
        memories.get(any_runtime.store, namespace, a.memory.id)
    assert memories.list_tags(any_runtime.store, namespace) == []
    with pytest.raises(NotFound):
        memories.forget(any_runtime.store, namespace, a.memory.id, hard=True)


def test_supersede_marks_history(any_runtime: Runtime, namespace: str) -> None:
    old, new = remember(
        any_runtime,
        namespace,
        NewMemory(content="Sam works at Google"),
        NewMemory(content="Sam works at Microsoft"),
    )
    memories.supersede(
        any_runtime.store, namespace, old.memory.id, new.memory.id, reason="job change"
    )
    m = memories.get(any_runtime.store, namespace, old.memory.id)
    assert (m.status, m.superseded_by) == ("superseded", new.memory.id)
    active = [
        s.memory.id
        for s in memories.search(any_runtime.store, any_runtime.embedder, namespace, "Sam job", 5)
    ]
    assert active == [new.memory.id]


def test_link_creates_then_reinforces(any_runtime: Runtime, namespace: str) -> None:
    a, b = remember(any_runtime, namespace, NewMemory(content="a1"), NewMemory(content="b1"))
    assert memories.link(
        any_runtime.store, namespace, a.memory.id, b.memory.id, weight=0.5, confidence=0.5
    ) == (0.5, 0.5)
    w, c = memories.link(
        any_runtime.store, namespace, a.memory.id, b.memory.id, weight=0.7, confidence=0.5
    )
    assert w == 0.7 and c == pytest.approx(0.6)
    missing = str(uuid.uuid4())
    with pytest.raises(NotFound) as err:
        memories.link(any_runtime.store, namespace, a.memory.id, missing)
    assert err.value.field == "to"


def test_tag_and_untag(any_runtime: Runtime, namespace: str) -> None:
    [r] = remember(any_runtime, namespace, NewMemory(content="likes Python"))
    m = memories.tag(
        any_runtime.store, namespace, r.memory.id, ["Python", " python ", "Coding Style"]
    )
    assert m.tags == ("coding-style", "python")
    m = memories.untag(any_runtime.store, namespace, r.memory.id, ["PYTHON"])
    assert m.tags == ("coding-style",)
    tags = {t.name: t.count for t in memories.list_tags(any_runtime.store, namespace)}
    assert tags == {"coding-style": 1}


@pytest.mark.parametrize(
    ("item", "field"),
    [
        (NewMemory(content="   "), "memory.content"),
        (NewMemory(content="x" * (32 * 1024 + 1)), "memory.content"),
        (NewMemory(content="ok", memory_type="rumour"), "memory.memoryType"),
        (NewMemory(content="ok", scope="planet"), "memory.scope"),
        (NewMemory(content="ok", confidence=1.5), "memory.confidence"),
        (NewMemory(content="ok", trust_score=-0.1), "memory.trustScore"),
        (NewMemory(content="ok", scope="project"), "memory.project"),
        (NewMemory(content="ok", occurred_at="yesterday"), "memory.occurredAt"),
        (NewMemory(content="ok", tags=("x" * 65,)), "memory.tags[0]"),
    ],
)
def test_bad_input_is_typed_and_writes_nothing(
    runtime: Runtime, namespace: str, item: NewMemory, field: str
) -> None:
    with pytest.raises(InvalidInput) as err:
        remember(runtime, namespace, item)
    assert err.value.field == field
    assert count(runtime, namespace, status=None) == 0


def test_a_batch_is_atomic(runtime: Runtime, namespace: str) -> None:
    with pytest.raises(InvalidInput) as err:
        remember(runtime, namespace, NewMemory(content="good one"), NewMemory(content=""))
    assert err.value.field == "memories[1].content"
    assert count(runtime, namespace, status=None) == 0


def test_batch_limit(runtime: Runtime, namespace: str) -> None:
    with pytest.raises(BatchTooLarge) as err:
        remember(runtime, namespace, *[NewMemory(content=f"m{i}") for i in range(1001)])
    assert err.value.limit == 1000


def test_malformed_ids_and_namespaces(runtime: Runtime, namespace: str) -> None:
    with pytest.raises(InvalidInput, match="id"):
        memories.get(runtime.store, namespace, "not-a-uuid")
    with pytest.raises(InvalidInput, match="namespace"):
        memories.get(runtime.store, "bad namespace!", str(uuid.uuid4()))
    with pytest.raises(InvalidInput) as err:
        memories.search(runtime.store, runtime.embedder, namespace, "q", 0)
    assert err.value.field == "k"


def test_secrets_are_redacted_before_storage(runtime: Runtime, namespace: str) -> None:
    key = "sk-proj-" + "Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kM9nP2rS5uX8"
    [r] = remember(runtime, namespace, NewMemory(content=f"The deploy key is {key} for staging"))
    assert key not in r.memory.content
    assert "[REDACTED:openai_api_key]" in r.memory.content
    stored = runtime.store.driver.execute_query(
        "MATCH (m:Memory {id: $id}) RETURN m.content AS c",
        id=r.memory.id,
        database_=runtime.store.database,
    ).records[0]["c"]
    assert key not in stored


def test_reject_mode_refuses_secrets_and_writes_nothing(runtime: Runtime, namespace: str) -> None:

    from hippograph.graph.errors import SecretRejected
    from hippograph.graph.runtime import write_policy

    strict = write_policy(runtime.settings.with_(privacy_mode="reject"))
    with pytest.raises(SecretRejected) as err:
        writepath.remember(
            runtime.store,
            runtime.embedder,
            namespace,
            [NewMemory(content="fine"), NewMemory(content="password=Hunter2!x9")],
            policy=strict,
        )
    assert err.value.field == "memories[1].content"
    assert count(runtime, namespace, status=None) == 0
