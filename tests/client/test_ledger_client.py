"""Transcripts as OpenAI and Anthropic give them, through the client and the real app: stored as
sent, read back as conversations, erased; and the agent views (context, core, profile, used)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.client import Client, InvalidInput, NewMemory, from_anthropic, from_openai
from hippograph.graph.runtime import Runtime

OPENAI = [
    {"role": "system", "content": "You are a travel assistant."},
    {"role": "user", "content": "Book me a table in Lisbon; I am vegetarian."},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_1", "type": "function",
         "function": {"name": "find_table", "arguments": "{\"city\": \"Lisbon\"}"}}]},
    {"role": "tool", "tool_call_id": "call_1",
     "content": "{\"name\": \"Ao 26\", \"at\": \"20:00\"}"},
    {"role": "assistant", "content": [{"type": "text", "text": "Booked Ao 26 at 20:00."}]},
]  # fmt: skip
ANTHROPIC = [
    {"role": "user", "content": "What's the weather in Porto?  "},
    {"role": "assistant", "content": [
        {"type": "text", "text": "Let me check."},
        {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {"city": "Porto"}}]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "18C, rain",
         "is_error": False}]},
]  # fmt: skip


@pytest.fixture
def client(runtime: Runtime, namespace: str) -> Iterator[Client]:
    with TestClient(create_app(runtime=runtime)) as http:
        yield Client("/graphql", namespace=namespace, http=http)


def test_platform_transcripts_go_in_as_sent_and_come_out_erased(client: Client) -> None:
    first = client.ingest(from_openai(OPENAI, session_id="oa", speakers={"user": "Ana"}),
                          flush=True)  # fmt: skip
    assert first.stored == 5 and [t.turn_index for t in first.turns] == [0, 1, 2, 3, 4]
    second = client.ingest(from_anthropic(ANTHROPIC, session_id="an", system="Be brief."),
                           flush=True)  # fmt: skip
    assert second.stored == 4

    oa = client.conversation("oa").turns
    assert [t.role for t in oa] == ["system", "user", "assistant", "tool", "assistant"]
    assert oa[1].speaker == "Ana" and oa[1].text == OPENAI[1]["content"]
    assert oa[2].text == "" and oa[2].tool_calls[0].name == "find_table"
    assert json.loads(oa[2].tool_calls[0].arguments) == {"city": "Lisbon"}
    assert oa[3].tool_results[0].call_id == "call_1" and "Ao 26" in oa[3].tool_results[0].content
    an = client.conversation("an", direction="backward").turns
    assert [t.role for t in an] == ["user", "assistant", "user", "system"]
    assert an[3].text == "Be brief." and an[2].text == "What's the weather in Porto?  "
    assert an[1].tool_calls[0].id == "toolu_1" and an[0].tool_results[0].content == "18C, rain"
    # The tools' calls and answers are in the log, not in memories (the assistant's own
    # words about them are).
    said = [m.content for m in client.memories().items]
    assert not [c for c in said if "rain" in c or '"name"' in c or "find_table" in c]
    assert [c for c in said if "Booked Ao 26" in c]

    page = client.sessions()
    assert {(s.session_id, s.turns) for s in page.items} == {("oa", 5), ("an", 4)}
    sent_again = client.ingest(from_openai(OPENAI[:2], session_id="oa"))
    assert sent_again.stored == 2  # no ids and no index: new messages, appended

    gone = client.erase(text="vegetarian")
    assert gone.turns >= 1 and gone.memories >= 1 and not gone.dry_run
    assert not [m for m in client.memories().items if "vegetarian" in m.content]
    assert all("vegetarian" not in t.text for t in client.conversation("oa").turns)
    assert client.clear_session("an").turns == 4
    assert {s.session_id for s in client.sessions().items} == {"oa"}
    with pytest.raises(InvalidInput):
        client.erase(text="x")


def test_the_agent_views_through_the_client(client: Client) -> None:
    tea = client.remember(NewMemory(content="Ada prefers green tea", memory_type="preference"))
    bundle = client.context("what should I brew for Ada?", budget=100)
    assert "green tea" in bundle.text and tea[0].memory.id in {i.id for i in bundle.items}
    assert client.used(tea[0].memory.id).memories_touched == 1
    block = client.core()
    assert block.version == 0 and block.changes == ()
    assert client.profile().entries == ()
    assert [t.name for t in client.tags()] == [] or all(t.count >= 0 for t in client.tags())
    assert client.pending("nobody") is None
