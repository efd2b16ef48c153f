"""Pydantic AI with Hippograph: a capability that brings the memory tools, puts the context
bundle in front of each model request, and sends the run's messages to the ledger after it.

    memory = AsyncClient(url, namespace="my-agent")
    agent = Agent("openai:gpt-5", capabilities=[HippographMemory(memory, session_id="chat-1")])

The pieces stand alone too: ``memory_toolset`` (remember, recall, forget, context as a
``FunctionToolset``), ``context_processor`` (a history processor, for ``ProcessHistory``) and
``to_turns`` (messages as ledger turns). The capability adds the bundle to the request it sends,
not to the run's history (``ProcessHistory`` would keep it there, and it would be ingested as
something said), framed in a registered ``<hippograph_memory>`` tag as the framework frames a
capability's data: a user part before the latest prompt, never the instructions (a memory is
evidence, not an order). A typed error a tool can fix (a bad argument, an unknown id) is a
``ModelRetry`` with its code, field and limit; other errors end the run as they are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.framing import register_tag, wrap
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    SystemPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models import ModelRequestContext
from pydantic_ai.run import AgentRunResult
from pydantic_ai.toolsets import FunctionToolset

from hippograph.client import AsyncClient, InvalidInput, NotFound, ToolResult, Turn, from_openai
from hippograph.integrations import common

MEMORY_TAG = register_tag("hippograph_memory")
Processor = Callable[[list[ModelMessage]], Awaitable[list[ModelMessage]]]
Chat = dict[str, Any]


@dataclass
class HippographMemory(AbstractCapability[Any]):
    """Long-term memory for an agent (a Pydantic AI capability).

    memory: the client (its namespace and API key). session_id: the ledger session the runs'
    messages go to (None: the run's conversation id). budget: the bundle's tokens (None: the
    server's default). flush: extract the new turns' facts after each run, so the next can
    recall them. tools: give the model the memory tools too.
    """

    memory: AsyncClient
    session_id: str | None = None
    budget: int | None = None
    flush: bool = True
    tools: bool = True

    def __post_init__(self) -> None:
        self._processor = context_processor(self.memory, budget=self.budget)

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # holds a client: not built from an agent spec

    def get_toolset(self) -> FunctionToolset[Any] | None:
        return memory_toolset(self.memory) if self.tools else None

    async def before_model_request(
        self, ctx: RunContext[Any], request_context: ModelRequestContext
    ) -> ModelRequestContext:
        request_context.messages = await self._processor(list(request_context.messages))
        return request_context

    async def after_run(
        self, ctx: RunContext[Any], *, result: AgentRunResult[Any]
    ) -> AgentRunResult[Any]:
        session = self.session_id or ctx.conversation_id or ctx.run_id
        turns = to_turns(result.new_messages(), str(session))
        if turns:
            await self.memory.ingest(turns, flush=self.flush)
        return result


def memory_toolset(memory: AsyncClient, *, k: int = 5) -> FunctionToolset[Any]:
    """remember, recall, forget and context as tools (k: how many ``recall`` returns unless the
    model asks for more)."""

    async def remember(content: str, memory_type: str = "fact") -> str:
        """Remember something for later conversations.

        Args:
            content: The statement to remember, in full ("Ana is allergic to peanuts").
            memory_type: fact, preference, procedure, correction or negative (a rule never to
                break).
        """
        return await _retrying(common.remember(memory, content, memory_type))

    async def recall(query: str, limit: int = k) -> str:
        """Recall what is remembered about something, best first, each with its id.

        Args:
            query: What to recall, in words ("Ana's allergies").
            limit: How many memories at most.
        """
        return await _retrying(common.recall(memory, query, limit))

    async def forget(memory_id: str) -> str:
        """Forget one memory (it is archived), by the id recall gave.

        Args:
            memory_id: The memory's id.
        """
        return await _retrying(common.forget(memory, memory_id))

    async def context(about: str, budget: int = 500) -> str:
        """What is remembered about a subject, as notes grouped by kind (rules, corrections,
        preferences, facts, procedures).

        Args:
            about: The subject, in words.
            budget: The notes' length at most, in tokens.
        """
        return await _retrying(common.context(memory, about, budget))

    return FunctionToolset([remember, recall, forget, context])


async def _retrying(answer: Awaitable[str]) -> str:
    try:
        return await answer
    except (InvalidInput, NotFound) as exc:  # the model can fix the call: tell it how
        raise ModelRetry(common.tool_error(exc)) from exc


def context_processor(
    memory: AsyncClient, *, budget: int | None = None, session_id: str | None = None
) -> Processor:
    """A history processor that puts the context bundle of the latest user prompt before it,
    framed in ``<hippograph_memory>``. Each request asks anew: after a tool call the bundle
    holds what the tool just remembered."""

    async def add_context(messages: list[ModelMessage]) -> list[ModelMessage]:
        found = _last_prompt(messages)
        query = "" if found is None else _text(found[1]).strip()
        if found is None or not query:
            return messages
        at, part = found
        bundle = await memory.context(common.clip(query), budget=budget, session_id=session_id)
        text = common.note(bundle)
        if not text:
            return messages
        request = messages[at]
        assert isinstance(request, ModelRequest)
        framed = UserPromptPart(content=wrap(MEMORY_TAG, text))
        index = request.parts.index(part)
        parts = [*request.parts[:index], framed, *request.parts[index:]]
        return [*messages[:at], dataclasses.replace(request, parts=parts), *messages[at + 1 :]]

    return add_context


def to_turns(messages: Sequence[ModelMessage], session_id: str) -> list[Turn]:
    """Pydantic AI messages as ledger turns, in order (through ``from_openai``): system and
    user prompts, the model's text and tool calls, tool returns (a failed one, or a retry sent
    for a call, with status ``error``). Instructions and thinking are not something said."""
    chats: list[Chat] = []
    failed: set[int] = set()
    for message in messages:
        for chat, ok in _as_chats(message):
            if not ok:
                failed.add(len(chats))
            chats.append(chat)
    turns = from_openai(chats, session_id=session_id)
    return [_failed(t) if i in failed else t for i, t in enumerate(turns)]


def _as_chats(message: ModelMessage) -> list[tuple[Chat, bool]]:
    if isinstance(message, ModelResponse):
        text = "".join(p.content for p in message.parts if isinstance(p, TextPart))
        calls = [_call(p) for p in message.parts if isinstance(p, ToolCallPart)]
        if not text and not calls:
            return []
        return [({"role": "assistant", "content": text or None, "tool_calls": calls}, True)]
    chats: list[tuple[Chat, bool]] = []
    for part in message.parts:
        if isinstance(part, SystemPromptPart):
            chats.append(({"role": "system", "content": part.content}, True))
        elif isinstance(part, UserPromptPart):
            chats.append(({"role": "user", "content": _user_content(part)}, True))
        elif isinstance(part, ToolReturnPart):
            result = {"role": "tool", "tool_call_id": part.tool_call_id,
                      "content": part.model_response_str()}  # fmt: skip
            chats.append((result, part.outcome == "success"))
        elif isinstance(part, RetryPromptPart) and part.tool_name:
            retry = {"role": "tool", "tool_call_id": part.tool_call_id,
                     "content": part.model_response()}  # fmt: skip
            chats.append((retry, False))
    return chats


def _call(part: ToolCallPart) -> Chat:
    function = {"name": part.tool_name, "arguments": part.args_as_json_str()}
    return {"id": part.tool_call_id, "function": function}


def _user_content(part: UserPromptPart) -> str | list[Chat]:
    if isinstance(part.content, str):
        return part.content
    return [
        {"type": "text", "text": c} if isinstance(c, str) else {"type": type(c).__name__}
        for c in part.content
    ]


def _failed(turn: Turn) -> Turn:
    results = tuple(ToolResult(call_id=r.call_id, content=r.content, status="error")
                    for r in turn.tool_results)  # fmt: skip
    return dataclasses.replace(turn, tool_results=results)


def _last_prompt(messages: Sequence[ModelMessage]) -> tuple[int, UserPromptPart] | None:
    for at in range(len(messages) - 1, -1, -1):
        message = messages[at]
        if isinstance(message, ModelRequest):
            prompts = [p for p in message.parts if isinstance(p, UserPromptPart)]
            if prompts:
                return at, prompts[-1]
    return None


def _text(part: UserPromptPart) -> str:
    content = part.content
    if isinstance(content, str):
        return content
    return "\n".join(c for c in content if isinstance(c, str))
