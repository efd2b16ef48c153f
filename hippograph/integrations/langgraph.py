"""LangGraph nodes around the model call: the context bundle before it, the ledger after it.

    builder = StateGraph(MemoryState)
    builder.add_node("recall", context_node(memory))      # state["memory_context"] = the note
    builder.add_node("model", lambda s: {"messages": [llm.invoke(with_memory(s))]})
    builder.add_node("remember", ingest_node(memory))     # the thread's messages to the ledger
    builder.add_edge(START, "recall"); builder.add_edge("recall", "model")
    builder.add_edge("model", "remember"); builder.add_edge("remember", END)

The session is the run's ``thread_id`` (``config["configurable"]``), or a fixed ``session_id``.
Messages go to the ledger in LangChain's own shape, through ``convert_to_openai_messages`` and
``from_openai``: roles, tool calls and tool results as the graph holds them, each message's id as
its message id, so sending a thread's messages again after every turn stores only the new ones.
The note stays out of ``messages`` (``with_memory`` adds it to the model's input only), so it
is never ingested as something said. Pass an ``AsyncClient`` for a graph run with
``ainvoke``: the nodes are then coroutines. The long-term store is
``hippograph.integrations.langgraph_store.HippographStore``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from langchain_core.messages import AnyMessage, BaseMessage, HumanMessage
from langchain_core.messages import convert_to_openai_messages as to_openai
from langchain_core.runnables import RunnableConfig
from langgraph.graph import MessagesState

from hippograph.client import AsyncClient, Client, Turn, from_openai
from hippograph.integrations.common import clip, note

Update = dict[str, Any]
Node = Callable[[Mapping[str, Any], RunnableConfig], Update | Awaitable[Update]]


class MemoryState(MessagesState):
    """``MessagesState`` with the note ``context_node`` made for this turn ("" when none)."""

    memory_context: str


def context_node(
    memory: Client | AsyncClient,
    *,
    budget: int | None = None,
    session_id: str | None = None,
) -> Node:
    """A node that asks for the context bundle of the latest user message and puts it in
    ``memory_context`` as a note (budget: its tokens; the server's default when None)."""

    def ask(state: Mapping[str, Any], config: RunnableConfig) -> tuple[str, str] | None:
        text = _last_user_text(state.get("messages", ())).strip()
        return (clip(text), _session(config, session_id)) if text else None

    if isinstance(memory, AsyncClient):
        amemory = memory

        async def arecall(state: Mapping[str, Any], config: RunnableConfig) -> Update:
            asked = ask(state, config)
            if asked is None:
                return {"memory_context": ""}
            bundle = await amemory.context(asked[0], budget=budget, session_id=asked[1])
            return {"memory_context": note(bundle) or ""}

        return arecall

    def recall(state: Mapping[str, Any], config: RunnableConfig) -> Update:
        asked = ask(state, config)
        if asked is None:
            return {"memory_context": ""}
        bundle = memory.context(asked[0], budget=budget, session_id=asked[1])
        return {"memory_context": note(bundle) or ""}

    return recall


def ingest_node(
    memory: Client | AsyncClient,
    *,
    flush: bool = True,
    session_id: str | None = None,
) -> Node:
    """A node that sends the thread's messages to the ledger (flush: extract their facts now,
    so the next turn can recall them; False leaves it to the server's schedule)."""
    if isinstance(memory, AsyncClient):
        amemory = memory

        async def aingest(state: Mapping[str, Any], config: RunnableConfig) -> Update:
            turns = to_turns(state.get("messages", ()), _session(config, session_id))
            if turns:
                await amemory.ingest(turns, flush=flush)
            return {}

        return aingest

    def ingest(state: Mapping[str, Any], config: RunnableConfig) -> Update:
        turns = to_turns(state.get("messages", ()), _session(config, session_id))
        if turns:
            memory.ingest(turns, flush=flush)
        return {}

    return ingest


def with_memory(state: Mapping[str, Any]) -> list[AnyMessage]:
    """The state's messages with its ``memory_context`` note as a user message before the latest
    user message: what to hand the chat model."""
    messages: list[AnyMessage] = list(state.get("messages", ()))
    text = state.get("memory_context") or ""
    if not text:
        return messages
    last = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=0)
    return [*messages[:last], HumanMessage(content=text), *messages[last:]]


def to_turns(messages: Sequence[BaseMessage], session_id: str) -> list[Turn]:
    """LangChain messages as ledger turns, in order, each keeping its id as its message id."""
    chats = []
    for message in messages:
        chat = dict(to_openai(message))
        if message.id:
            chat["id"] = message.id
        chats.append(chat)
    return from_openai(chats, session_id=session_id)


def _last_user_text(messages: Sequence[BaseMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return str(message.text)
    return ""


def _session(config: RunnableConfig, fixed: str | None) -> str:
    if fixed is not None:
        return fixed
    thread = (config.get("configurable") or {}).get("thread_id")
    if not thread:
        raise ValueError(
            "no session: run the graph with config={'configurable': {'thread_id': ...}} "
            "or give the node a session_id"
        )
    return str(thread)
