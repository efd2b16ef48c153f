"""The OpenAI Agents SDK with Hippograph: a ``Session`` over the ledger, memory tools, and an
input filter that puts the context bundle before the model call.

    memory = AsyncClient(url, namespace="my-agent")
    agent = Agent(name="helper", instructions="...", tools=memory_tools(memory))
    config = RunConfig(call_model_input_filter=context_filter(memory))
    await Runner.run(agent, "hi", session=HippographSession("chat-1", memory), run_config=config)

``HippographSession`` keeps a conversation as ledger turns: a message by its role and text, a
``function_call`` as an assistant turn's tool call, a ``function_call_output`` as a tool turn's
result; any other item (reasoning, hosted tools) rides whole in its turn's metadata (16 KiB).
``get_items`` gives them back in the Responses shape (messages as ``{"role", "content"}``);
``pop_item`` and ``clear_session`` erase turns, with what was derived only from them. Item
ids are not message ids: models other than OpenAI's give every item the same placeholder id.

The filter leaves the session alone: the note goes into the model's input only, as a user
message before the latest one. The tools answer a typed error (a bad ``k``, an unknown id) with
its code, field and limit, so the model can fix its call; other failures get the SDK's
default answer.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, cast

from agents import FunctionTool, RunContextWrapper, function_tool
from agents.items import TResponseInputItem
from agents.memory import SessionSettings
from agents.run_config import CallModelData, ModelInputData
from agents.tool import default_tool_error_function

from hippograph.client import AsyncClient, HippographError, Turn, from_openai
from hippograph.graph.model import Episode  # what the client's conversation returns
from hippograph.integrations import common

TEXT_PARTS = ("input_text", "output_text", "text")
ITEM = "openai_item"  # the metadata key of an item kept whole
PAGE = 1000  # the server's largest page of turns


class HippographSession:
    """The Agents SDK's ``Session`` protocol over one ledger session.

    session_id: the conversation's id in the ledger. memory: the client (its namespace and API
    key). flush: extract the new turns' facts as they are added, so the next turn can recall
    them (False: the server's schedule decides).
    """

    session_settings: SessionSettings | None = None

    def __init__(self, session_id: str, memory: AsyncClient, *, flush: bool = True) -> None:
        self.session_id = session_id
        self.memory = memory
        self.flush = flush

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        if limit is not None:
            page = await self.memory.conversation(
                self.session_id, first=limit, direction="backward"
            )
            turns = list(reversed(page.turns))
        else:
            turns = []
            after: str | None = None
            while True:
                page = await self.memory.conversation(self.session_id, first=PAGE, after=after)
                turns += page.turns
                if page.next_cursor is None:
                    break
                after = page.next_cursor
        return [item for turn in turns for item in to_items(turn)]

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        if items:
            await self.memory.ingest(to_turns(items, self.session_id), flush=self.flush)

    async def pop_item(self) -> TResponseInputItem | None:
        page = await self.memory.conversation(self.session_id, first=1, direction="backward")
        if not page.turns:
            return None
        turn = page.turns[0]
        await self.memory.erase_turn(turn.id)
        items = to_items(turn)
        return items[-1] if items else None

    async def clear_session(self) -> None:
        await self.memory.clear_session(self.session_id)


def to_turns(items: Sequence[TResponseInputItem], session_id: str) -> list[Turn]:
    """Responses input items as ledger turns, in order (through ``from_openai``)."""
    return from_openai([_as_chat(cast(Mapping[str, Any], i)) for i in items], session_id=session_id)


def to_items(turn: Episode) -> list[TResponseInputItem]:
    """A ledger turn as the Responses items it was made from."""
    meta = turn.metadata or {}
    if ITEM in meta:
        return [cast(TResponseInputItem, json.loads(str(meta[ITEM])))]
    items: list[dict[str, Any]] = [
        {"type": "function_call", "call_id": c.id, "name": c.name, "arguments": c.arguments}
        for c in turn.tool_calls
    ]
    items += [
        {"type": "function_call_output", "call_id": r.call_id, "output": r.content}
        for r in turn.tool_results
    ]
    if turn.text or not items:
        items.insert(0, {"role": turn.role or "user", "content": turn.text})
    return [cast(TResponseInputItem, i) for i in items]


def _as_chat(item: Mapping[str, Any]) -> dict[str, Any]:
    """One Responses item as the chat message ``from_openai`` reads."""
    kind = item.get("type", "message")
    if kind == "message" and isinstance(item.get("role"), str):
        content = item.get("content")
        if isinstance(content, str):
            return {"role": item["role"], "content": content}
        parts = [
            {"type": "text", "text": p.get("text", "")}
            if p.get("type") in TEXT_PARTS
            else {"type": p.get("type", "unknown")}  # an image or a file: its type is kept
            for p in content or ()
        ]
        return {"role": item["role"], "content": parts}
    if kind == "function_call":
        call = {"name": item["name"], "arguments": item.get("arguments", "")}
        return {"role": "assistant", "tool_calls": [{"id": item["call_id"], "function": call}]}
    if kind == "function_call_output":
        output = item.get("output", "")
        text = output if isinstance(output, str) else json.dumps(output, ensure_ascii=False)
        return {"role": "tool", "tool_call_id": item["call_id"], "content": text}
    return {"role": "assistant", "content": "", ITEM: json.dumps(item, ensure_ascii=False)}


def context_filter(
    memory: AsyncClient, *, budget: int | None = None, session_id: str | None = None
) -> Callable[[CallModelData[Any]], Awaitable[ModelInputData]]:
    """A ``RunConfig.call_model_input_filter`` that puts the context bundle of the latest user
    message before it, as a user message (budget: the bundle's tokens; session_id: recall that
    session's memories too). Each model call asks anew: after a tool call the bundle holds what
    the tool just remembered."""

    async def add_context(data: CallModelData[Any]) -> ModelInputData:
        items = list(data.model_data.input)
        at = _last_user(items)
        query = "" if at is None else _text(cast(Mapping[str, Any], items[at])).strip()
        if at is None or not query:
            return data.model_data
        bundle = await memory.context(common.clip(query), budget=budget, session_id=session_id)
        text = common.note(bundle)
        if text:
            items.insert(at, cast(TResponseInputItem, {"role": "user", "content": text}))
        return ModelInputData(input=items, instructions=data.model_data.instructions)

    return add_context


def memory_tools(memory: AsyncClient, *, k: int = 5) -> list[FunctionTool]:
    """``remember``, ``recall`` and ``forget`` as function tools (k: how many ``recall`` returns
    unless the model asks for more)."""

    @function_tool(failure_error_function=_tool_error)
    async def remember(content: str, memory_type: str = "fact") -> str:
        """Remember something for later conversations.

        Args:
            content: The statement to remember, in full ("Ana is allergic to peanuts").
            memory_type: fact, preference, procedure, correction or negative (a rule never to
                break).
        """
        return await common.remember(memory, content, memory_type)

    @function_tool(failure_error_function=_tool_error)
    async def recall(query: str, limit: int = k) -> str:
        """Recall what is remembered about something, best first, each with its id.

        Args:
            query: What to recall, in words ("Ana's allergies").
            limit: How many memories at most.
        """
        return await common.recall(memory, query, limit)

    @function_tool(failure_error_function=_tool_error)
    async def forget(memory_id: str) -> str:
        """Forget one memory (it is archived), by the id recall gave.

        Args:
            memory_id: The memory's id.
        """
        return await common.forget(memory, memory_id)

    return [remember, recall, forget]


def _tool_error(ctx: RunContextWrapper[Any], error: Exception) -> str:
    cause = error if isinstance(error, HippographError) else error.__cause__
    if isinstance(cause, HippographError):
        return common.tool_error(cause)
    return default_tool_error_function(ctx, error)


def _last_user(items: Sequence[TResponseInputItem]) -> int | None:
    for i in range(len(items) - 1, -1, -1):
        item = cast(Mapping[str, Any], items[i])
        if item.get("role") == "user" and item.get("type", "message") == "message":
            return i
    return None


def _text(item: Mapping[str, Any]) -> str:
    content = item.get("content")
    if isinstance(content, str):
        return content
    return "\n".join(str(p.get("text", "")) for p in content or () if p.get("type") in TEXT_PARTS)
