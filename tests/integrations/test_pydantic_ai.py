"""Pydantic AI with Hippograph: a real Agent, a scripted FunctionModel, the real app.

A fact said in one run reaches the next run's request through the ledger and the context
bundle, framed as the framework frames a capability's data; the runs' messages (tool calls
included) land in the ledger; a tool call the model can fix is retried with the typed error."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

from hippograph.client import AsyncClient
from hippograph.integrations.pydantic_ai import HippographMemory, memory_toolset, to_turns

SAID = "My sister Ingrid keeps bees on her farm near Tromsø."
Script = list[Callable[[list[ModelMessage]], ModelResponse]]


def scripted(steps: Script, seen: list[list[ModelMessage]]) -> FunctionModel:
    """A model that answers with the next step and keeps every request's messages."""

    def answer(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        return steps[len(seen) - 1](messages)

    return FunctionModel(answer)


def say(text: str) -> Callable[[list[ModelMessage]], ModelResponse]:
    return lambda _: ModelResponse(parts=[TextPart(text)])


def call(name: str, **args: Any) -> Callable[[list[ModelMessage]], ModelResponse]:
    return lambda _: ModelResponse(parts=[ToolCallPart(name, args, tool_call_id=f"call-{name}")])


def test_a_fact_from_one_run_reaches_the_next_runs_request(
    graphql_url: str, namespace: str
) -> None:
    seen: list[list[ModelMessage]] = []
    steps: Script = [say("Noted: Ingrid keeps bees."), say("She keeps bees.")]

    async def main() -> None:
        async with AsyncClient(graphql_url, namespace=namespace) as memory:
            model = scripted(steps, seen)
            first = Agent(model, capabilities=[HippographMemory(memory, session_id="p1")])
            assert (await first.run(SAID)).output == "Noted: Ingrid keeps bees."
            ledger = (await memory.conversation("p1")).turns
            assert [(t.role, t.text) for t in ledger] == [
                ("user", SAID), ("assistant", "Noted: Ingrid keeps bees."),
            ]  # fmt: skip

            second = Agent(model, capabilities=[HippographMemory(memory, session_id="p2")])
            question = "What does my sister keep on her farm?"
            result = await second.run(question)
            assert result.output == "She keeps bees."
            request = seen[1][-1]
            assert isinstance(request, ModelRequest)
            prompts = [p.content for p in request.parts if isinstance(p, UserPromptPart)]
            assert len(prompts) == 2 and prompts[1] == question
            note = str(prompts[0])
            assert note.startswith("<hippograph_memory>") and note.endswith("</hippograph_memory>")
            assert "bees" in note and "Tromsø" in note
            # The note went to the model only: the run's history and the ledger hold what was said.
            kept = [p for m in result.all_messages() for p in getattr(m, "parts", ())
                    if isinstance(p, UserPromptPart)]  # fmt: skip
            assert [p.content for p in kept] == [question]
            assert [t.text for t in (await memory.conversation("p2")).turns] == [
                question, "She keeps bees.",
            ]  # fmt: skip

    asyncio.run(main())


def test_tools_remember_and_recall_and_retry_a_fixable_call(
    graphql_url: str, namespace: str
) -> None:
    seen: list[list[ModelMessage]] = []
    steps: Script = [
        call("remember", content="Ana is allergic to peanuts", memory_type="fact"),
        call("recall", query="what is Ana allergic to?", limit=5000),
        call("recall", query="what is Ana allergic to?"),
        call("context", about="Ana's allergies"),
        say("Ana is allergic to peanuts."),
    ]

    async def main() -> None:
        async with AsyncClient(graphql_url, namespace=namespace) as memory:
            agent = Agent(scripted(steps, seen), toolsets=[memory_toolset(memory)])
            assert (await agent.run("Remember Ana's allergy")).output.endswith("peanuts.")

    asyncio.run(main())
    answers = [p for m in seen[-1] if isinstance(m, ModelRequest) for p in m.parts]
    returns = {p.tool_name: p.content for p in answers if isinstance(p, ToolReturnPart)
               and p.outcome == "success"}  # fmt: skip
    assert str(returns["remember"]).startswith("ADD [")
    assert "peanuts" in str(returns["recall"]) and "peanuts" in str(returns["context"])
    # The framework's retry: the tool's answer is the typed error, marked retried.
    (retry,) = [p for p in answers if isinstance(p, ToolReturnPart) and p.outcome == "retried"]
    error = json.loads(str(retry.content))
    assert (error["code"], error["field"], error["limit"]) == ("BAD_INPUT", "k", 200)

    turns = to_turns(seen[-1], "tools")
    assert [t.role for t in turns][:4] == ["user", "assistant", "tool", "assistant"]
    assert turns[1].tool_calls[0].name == "remember"
    assert json.loads(turns[1].tool_calls[0].arguments)["content"] == "Ana is allergic to peanuts"
    assert [r.status for t in turns for r in t.tool_results] == ["ok", "error", "ok", "ok"]
