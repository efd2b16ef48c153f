"""hippograph.client against the real app: sync through Starlette's TestClient (an httpx
client; the lifespan runs), async through a real uvicorn server."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import anyio
import pytest
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.client import (
    AsyncClient,
    Client,
    InvalidInput,
    MemoryFilter,
    NewMemory,
    NotFound,
    RemoteError,
    Turn,
)
from hippograph.graph import clock, model
from hippograph.graph.model import to_iso
from hippograph.graph.runtime import Runtime
from tests.live_server import serve_in_thread


@pytest.fixture
def client(runtime: Runtime, namespace: str) -> Iterator[Client]:
    with TestClient(create_app(runtime=runtime)) as http:
        yield Client("/graphql", namespace=namespace, http=http)


def test_memory_actions_return_domain_records(client: Client, namespace: str) -> None:
    tea, observatory = client.remember(
        NewMemory(content="Ada prefers green tea in the morning", memory_type="preference",
                  tags=("drinks",), source=model.Source(session_id="s1", file_paths=("a.md",))),
        NewMemory(content="Ada works at the observatory on Tuesdays"),
    )  # fmt: skip
    assert isinstance(tea, model.RememberResult) and tea.created and tea.action == "ADD"
    assert isinstance(tea.memory, model.Memory)
    assert tea.memory.namespace == namespace and tea.memory.memory_type == "preference"
    assert tea.memory.status == "active" and tea.memory.provenance == "user_stated"
    assert tea.memory.source == model.Source(session_id="s1", file_paths=("a.md",))
    assert client.memory(tea.memory.id) == tea.memory

    again = client.remember(NewMemory(content="Ada prefers green tea in the morning."))[0]
    assert not again.created and again.memory.id == tea.memory.id and again.memory.strength == 2

    recalled = client.recall("what should I brew for Ada?", k=3, explain=True)
    assert recalled.items[0].memory.id == tea.memory.id and not recalled.gap
    assert recalled.items[0].explanation is not None and recalled.items[0].explanation.seed_kinds
    only_facts = client.recall("Ada", memory_types=["fact"])
    assert {i.memory.memory_type for i in only_facts.items} == {"fact"}

    found = client.search("Ada's drink", k=1)
    assert [(type(s), s.memory.id) for s in found] == [(model.ScoredMemory, tea.memory.id)]

    page = client.memories(first=1)
    assert len(page.items) == 1 and page.next_cursor is not None
    rest = client.memories(first=10, after=page.next_cursor)
    assert {m.id for m in page.items + rest.items} == {tea.memory.id, observatory.memory.id}
    prefs = client.memories(MemoryFilter(memory_type="preference"))
    assert [m.id for m in prefs.items] == [tea.memory.id]

    assert "morning" in client.tag(tea.memory.id, "morning").tags
    assert "morning" not in client.untag(tea.memory.id, "morning").tags
    link = client.link(tea.memory.id, observatory.memory.id, weight=0.4)
    assert link.weight == 0.4 and 0 < link.confidence <= 1
    rating = client.feedback(tea.memory.id, helpful=True)
    assert rating.memory_id == tea.memory.id and rating.helpful_count == 1

    newer = client.remember(NewMemory(content="Ada now works at the planetarium"))[0]
    old = client.supersede(observatory.memory.id, newer.memory.id, reason="changed jobs")
    assert old.status == "superseded" and old.superseded_by == newer.memory.id
    history = client.history(newer.memory.id)
    assert [r.id for r in history.supersedes] == [observatory.memory.id]
    # the write path may already have judged it a SUPERSEDE itself; history records its decision
    assert [d.action for d in history.decisions] == [newer.action]

    assert client.forget(observatory.memory.id, hard=True) == observatory.memory.id
    with pytest.raises(NotFound) as gone:
        client.memory(observatory.memory.id)
    assert gone.value.ident == observatory.memory.id and gone.value.kind == "memory"

    ingested = client.ingest(
        [Turn(session_id="s2", turn_index=0, speaker="Ada", text="I adopted a cat named Io."),
         Turn(session_id="s2", turn_index=1, speaker="Ada", text="She is three years old.")],
        flush=True,
    )  # fmt: skip
    assert ingested.stored == 2 and ingested.extracted_turns == 2 and ingested.pending_turns == 0
    assert sum(ingested.actions.values()) >= 1

    health = client.health()
    assert health.backend == "arcadedb" and health.embedder_loaded


def test_errors_are_raised_as_the_typed_errors(client: Client) -> None:
    with pytest.raises(InvalidInput) as empty:
        client.remember(NewMemory(content="  "))
    assert empty.value.code == "BAD_INPUT" and empty.value.field.endswith("content")
    with pytest.raises(InvalidInput) as too_many:
        client.recall("anything", k=100_000)
    assert too_many.value.field == "k" and too_many.value.limit == 200
    with pytest.raises(NotFound):
        client.history(str(uuid.uuid4()))
    with pytest.raises(InvalidInput) as self_link:
        memory = client.remember(NewMemory(content="Zoe keeps bees"))[0].memory
        client.link(memory.id, memory.id)
    assert self_link.value.field == "to"
    with pytest.raises(RemoteError) as wrong_type:
        client.execute(
            'query($k: Int!) { search(namespace: "x", query: "q", k: $k) { score } }',
            {"k": "three"},
        )
    assert wrong_type.value.code == "BAD_USER_INPUT" and "$k" in wrong_type.value.message


def test_async_client_over_a_real_server(runtime: Runtime, namespace: str) -> None:
    async def main(url: str) -> None:
        async with AsyncClient(url, namespace=namespace) as client:
            (done,) = await client.remember(NewMemory(content="The spare key is under the pot"))
            recalled = await client.recall("where is the spare key?")
            assert recalled.items[0].memory.id == done.memory.id
            assert (await client.search("spare key", k=1))[0].memory.id == done.memory.id
            assert [m.id for m in (await client.memories()).items] == [done.memory.id]
            await client.forget(done.memory.id)
            archived = await client.memory(done.memory.id)
            assert archived.status == "archived"
            assert (await client.memories()).items == ()
            with pytest.raises(NotFound):
                await client.feedback(str(uuid.uuid4()), helpful=False)
            assert (await client.health()).graph

    with serve_in_thread(create_app(runtime=runtime)) as base:
        anyio.run(main, f"{base}/graphql")


def test_as_of_verification_and_gaps_through_the_client(client: Client) -> None:
    t0 = datetime(2030, 1, 1, tzinfo=UTC)
    clock.set_now(t0)
    old = client.remember(NewMemory(content="Alice works at the observatory"))[0].memory
    clock.set_now(t0 + timedelta(days=1))
    new = client.remember(NewMemory(content="Alice works at the planetarium now"))[0].memory
    clock.set_now(t0 + timedelta(days=2))
    client.supersede(old.id, new.id, reason="moved jobs")
    assert old.recorded_at == to_iso(t0) and old.valid_until is None
    ended = client.memory(old.id)
    assert ended.status == "superseded" and ended.valid_until is not None

    before = to_iso(t0 + timedelta(hours=12))
    assert [m.id for m in client.memories(as_of=before).items] == [old.id]
    assert [s.memory.id for s in client.search("where does Alice work", as_of=before)] == [old.id]
    then = client.recall("Where does Alice work?", as_of=before)
    assert [i.memory.id for i in then.items] == [old.id]
    now = client.recall("Where does Alice work?")
    assert now.items[0].memory.id == new.id and old.id not in [i.memory.id for i in now.items]

    unchecked = client.recall("Where does Alice work?", verify=True, rejected="flag")
    assert unchecked.verification == "unverified: no LLM is configured"
    assert not any(i.rejected for i in unchecked.items)
    assert client.recall("Where does Alice work?").verification == "not requested"

    gap = client.recall("quarterly tax filing for the sailing boat")
    assert gap.gap and gap.items == ()
    nearest = client.recall("quarterly tax filing for the sailing boat", include_gap=True)
    assert nearest.gap and nearest.items
