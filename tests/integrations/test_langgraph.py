"""LangGraph with Hippograph: a real compiled graph, a scripted chat model, the real app.

A fact said in one thread reaches the model's prompt in another thread through the ledger and
the context bundle; the graph's messages (tool calls included) land in the ledger in their
shape; the long-term store keeps, finds and deletes items as LangGraph's ``BaseStore`` says."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore, InvalidNamespaceError

from hippograph.client import AsyncClient, Client, InvalidInput
from hippograph.integrations.langgraph import (
    MemoryState,
    context_node,
    ingest_node,
    to_turns,
    with_memory,
)
from hippograph.integrations.langgraph_store import HippographStore


class ScriptedChat(BaseChatModel):
    """A chat model that answers from a script and keeps every prompt it was given."""

    replies: list[str]
    prompts: list[list[BaseMessage]] = []

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        self.prompts.append(list(messages))
        reply = AIMessage(content=self.replies[len(self.prompts) - 1])
        return ChatResult(generations=[ChatGeneration(message=reply)])


@pytest.fixture
def memory(graphql_url: str, namespace: str) -> Iterator[Client]:
    with Client(graphql_url, namespace=namespace) as client:
        yield client


def test_a_fact_from_one_thread_reaches_the_prompt_of_another(memory: Client) -> None:
    llm = ScriptedChat(replies=["Noted: Ingrid and her bees.", "She keeps bees.", "Welcome!"])
    builder = StateGraph(MemoryState)
    builder.add_node("recall", context_node(memory, budget=400))
    builder.add_node("model", lambda state: {"messages": [llm.invoke(with_memory(state))]})
    builder.add_node("remember", ingest_node(memory))
    builder.add_edge(START, "recall")
    builder.add_edge("recall", "model")
    builder.add_edge("model", "remember")
    builder.add_edge("remember", END)
    graph = builder.compile(checkpointer=InMemorySaver())

    said = "My sister Ingrid keeps bees on her farm near Tromsø."
    first = graph.invoke({"messages": [HumanMessage(said)]}, {"configurable": {"thread_id": "t1"}})
    assert first["messages"][-1].content == "Noted: Ingrid and her bees."
    ledger = memory.conversation("t1").turns
    assert [(t.role, t.text) for t in ledger] == [
        ("user", said),
        ("assistant", "Noted: Ingrid and her bees."),
    ]
    assert [t.message_id for t in ledger] == [m.id for m in first["messages"]]

    question = "What does my sister Ingrid keep on her farm?"
    second = graph.invoke(
        {"messages": [HumanMessage(question)]}, {"configurable": {"thread_id": "t2"}}
    )
    prompt = llm.prompts[1]
    assert [type(m) for m in prompt] == [HumanMessage, HumanMessage]
    assert "bees" in prompt[0].text and "Tromsø" in prompt[0].text
    assert prompt[1].text == question
    # The note went to the model only: the thread holds what was said, and so does the ledger.
    assert [m.content for m in second["messages"]] == [question, "She keeps bees."]
    assert [t.text for t in memory.conversation("t2").turns] == [question, "She keeps bees."]

    # Running the first thread again sends its old messages too: only the new ones are stored.
    graph.invoke({"messages": [HumanMessage("Thanks!")]}, {"configurable": {"thread_id": "t1"}})
    assert len(memory.conversation("t1").turns) == 4


def test_tool_calls_and_results_reach_the_ledger_in_their_shape(memory: Client) -> None:
    messages = [
        HumanMessage("Weather in Porto?", id="m1"),
        AIMessage("", id="m2", tool_calls=[{"name": "weather", "args": {"city": "Porto"},
                                             "id": "call_7"}]),
        ToolMessage("18C, rain", tool_call_id="call_7", id="m3"),
        AIMessage("Rain in Porto, 18C.", id="m4"),
    ]  # fmt: skip

    async def run() -> None:
        async with AsyncClient(memory.url, namespace=memory.namespace) as amemory:
            node = ingest_node(amemory, session_id="tools")
            await node({"messages": messages}, {})  # type: ignore[misc]

    asyncio.run(run())
    turns = memory.conversation("tools").turns
    assert [(t.role, t.message_id) for t in turns] == [
        ("user", "m1"), ("assistant", "m2"), ("tool", "m3"), ("assistant", "m4"),
    ]  # fmt: skip
    call = turns[1].tool_calls[0]
    assert (call.id, call.name) == ("call_7", "weather")
    assert json.loads(call.arguments) == {"city": "Porto"}
    result = turns[2].tool_results[0]
    assert (result.call_id, result.content, result.status) == ("call_7", "18C, rain", "ok")
    assert len(to_turns(messages, "tools")) == 4
    with pytest.raises(ValueError, match="thread_id"):
        ingest_node(memory)({"messages": messages}, {})


def test_the_store_keeps_finds_and_deletes_items_as_memories(memory: Client) -> None:
    store = HippographStore(memory)
    user = ("users", "ana")
    store.put(user, "drink", {"text": "Ana drinks oolong tea every morning", "strength": 3})
    store.put(user, "pet", {"text": "Ana has a grey cat called Miso"})
    store.put(("users", "bo"), "drink", {"text": "Bo only drinks black coffee"})
    store.put(("docs",), "cfg", {"theme": "dark", "size": 12})  # no text field: JSON content

    got = store.get(user, "drink")
    assert got is not None and got.value == {"text": "Ana drinks oolong tea every morning",
                                             "strength": 3}  # fmt: skip
    assert got.namespace == user and got.key == "drink"
    assert store.get(user, "missing") is None
    assert store.get(("docs",), "cfg").value == {"theme": "dark", "size": 12}  # type: ignore[union-attr]
    # The items are memories: recall and a context bundle see their text.
    assert "oolong" in memory.context("what tea does Ana like?").text

    found = store.search(("users",), query="which tea does Ana drink?", limit=2)
    assert found[0].key == "drink" and found[0].namespace == user and found[0].score
    assert {i.namespace for i in store.search(("users", "ana"), query="drinks")} == {user}
    assert {(i.namespace, i.key) for i in store.search(("users",))} == {
        (user, "drink"), (user, "pet"), (("users", "bo"), "drink"),
    }  # fmt: skip
    assert [i.key for i in store.search(("users",), filter={"strength": {"$gte": 3}})] == ["drink"]
    assert store.list_namespaces() == [("docs",), ("users", "ana"), ("users", "bo")]
    assert store.list_namespaces(prefix=("users",), max_depth=1) == [("users",)]
    assert store.list_namespaces(suffix=("bo",)) == [("users", "bo")]

    store.put(user, "drink", {"text": "Ana switched to green tea", "strength": 1})
    assert store.get(user, "drink").value["text"] == "Ana switched to green tea"  # type: ignore[union-attr]
    assert len(store.search(user)) == 2
    store.delete(user, "pet")
    assert store.get(user, "pet") is None
    assert [m.status for m in memory.memories().items if "Miso" in m.content] == []

    async def run() -> None:
        await store.aput(user, "city", {"text": "Ana lives in Lisbon"})
        item = await store.aget(user, "city")
        assert item is not None and item.value == {"text": "Ana lives in Lisbon"}
        hits = await store.asearch(user, query="where does Ana live?", limit=1)
        assert [i.key for i in hits] == ["city"]

    asyncio.run(run())
    with pytest.raises(InvalidInput) as too_big:
        store.put(user, "big", {"text": "x", "notes": "n" * 3000})
    assert too_big.value.field == "value" and too_big.value.limit == 2000
    with pytest.raises(InvalidNamespaceError):
        store.put(tuple(f"l{i}" for i in range(31)), "k", {"text": "deep"})


def test_a_node_reads_the_store_langgraph_injects(memory: Client) -> None:
    store = HippographStore(memory)
    store.put(("prefs", "t9"), "diet", {"text": "The user is vegetarian"})

    def node(state: MemoryState, *, store: BaseStore) -> dict[str, Any]:
        hits = store.search(("prefs", "t9"), query=str(state["messages"][-1].content), limit=1)
        return {"messages": [AIMessage(hits[0].value["text"])]}

    builder = StateGraph(MemoryState)
    builder.add_node("answer", node)
    builder.add_edge(START, "answer")
    graph = builder.compile(store=store)
    out = graph.invoke({"messages": [HumanMessage("what food restrictions do I have?")]})
    assert out["messages"][-1].content == "The user is vegetarian"
