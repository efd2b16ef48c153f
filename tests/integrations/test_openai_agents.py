"""The OpenAI Agents SDK with Hippograph: the real Runner, the SDK's ScriptedModel, the real app.

A fact the agent remembers (a tool call) in one session reaches the model's input in another
through the context bundle; a session's items go to the ledger as turns and come back in the
Responses shape; a bad tool argument is answered with the typed error."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from agents import Agent, RunConfig, Runner
from agents.testing import ScriptedModel, assistant_message, function_call

from hippograph.client import AsyncClient
from hippograph.integrations.openai_agents import (
    HippographSession,
    context_filter,
    memory_tools,
    to_turns,
)

SAID = "My sister Ingrid keeps bees on her farm near Tromsø."


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def test_a_remembered_fact_reaches_the_next_sessions_prompt(
    graphql_url: str, namespace: str
) -> None:
    model = ScriptedModel(
        [
            [function_call("remember", {"content": "Ingrid keeps bees near Tromsø"}, call_id="c1")],
            [assistant_message("I will remember that.", item_id="m1")],
            [assistant_message("She keeps bees.", item_id="m2")],
            [assistant_message("Yes, near Tromsø.", item_id="m3")],
        ]
    )

    async def main() -> None:
        async with AsyncClient(graphql_url, namespace=namespace) as memory:
            agent = Agent(name="helper", instructions="Be brief.", model=model,
                          tools=memory_tools(memory))  # fmt: skip
            config = RunConfig(
                call_model_input_filter=context_filter(memory, budget=400), tracing_disabled=True
            )
            first = HippographSession("s1", memory)
            out = await Runner.run(agent, SAID, session=first, run_config=config)
            assert out.final_output == "I will remember that."
            ledger = (await memory.conversation("s1")).turns
            assert [t.role for t in ledger] == ["user", "assistant", "tool", "assistant"]
            assert ledger[0].text == SAID and ledger[1].tool_calls[0].name == "remember"
            assert ledger[2].tool_results[0].call_id == "c1"
            assert ledger[2].tool_results[0].content.startswith("ADD [")

            question = "What does my sister keep on her farm?"
            second = HippographSession("s2", memory)
            out = await Runner.run(agent, question, session=second, run_config=config)
            assert out.final_output == "She keeps bees."
            sent = model.calls[2].input
            assert [i["role"] for i in sent] == ["user", "user"]
            assert "bees" in sent[0]["content"] and "Tromsø" in sent[0]["content"]
            assert sent[1]["content"] == question
            # The note went to the model only; the session holds what was said.
            assert await second.get_items() == [
                {"role": "user", "content": question},
                {"role": "assistant", "content": "She keeps bees."},
            ]

            # A session's history comes back from the ledger in the Responses shape.
            await Runner.run(agent, "Near Tromsø?", session=first, run_config=config)
            history = model.calls[3].input
            assert history[0] == {"role": "user", "content": SAID}
            assert history[1]["type"] == "function_call" and history[1]["call_id"] == "c1"
            assert history[2]["type"] == "function_call_output"
            assert history[3] == {"role": "assistant", "content": "I will remember that."}
            assert history[-1] == {"role": "user", "content": "Near Tromsø?"}
            assert len(await first.get_items()) == 6
            assert await first.get_items(limit=2) == (await first.get_items())[-2:]

            popped = await first.pop_item()
            assert popped == {"role": "assistant", "content": "Yes, near Tromsø."}
            assert len(await first.get_items()) == 5
            await first.clear_session()
            assert await first.get_items() == [] and await first.pop_item() is None

    run(main())
    model.assert_complete()


def test_a_bad_tool_call_is_answered_with_the_typed_error(graphql_url: str, namespace: str) -> None:
    model = ScriptedModel(
        [
            [function_call("recall", {"query": "bees", "limit": 5000}, call_id="c1")],
            [function_call("forget", {"memory_id": "not-an-id"}, call_id="c2")],
            [assistant_message("Sorry.")],
        ]
    )

    async def main() -> None:
        async with AsyncClient(graphql_url, namespace=namespace) as memory:
            agent = Agent(name="helper", model=model, tools=memory_tools(memory))
            await Runner.run(agent, "recall", run_config=RunConfig(tracing_disabled=True))

    run(main())
    outputs = [i for i in model.calls[2].input if i.get("type") == "function_call_output"]
    bad_k = json.loads(outputs[0]["output"])
    assert (bad_k["code"], bad_k["field"], bad_k["limit"]) == ("BAD_INPUT", "k", 200)
    bad_id = json.loads(outputs[1]["output"])
    assert (bad_id["code"], bad_id["field"]) == ("BAD_INPUT", "id")


def test_items_round_trip_through_turns() -> None:
    items: list[Any] = [
        {"role": "user", "content": [{"type": "input_text", "text": "Hi"},
                                     {"type": "input_image", "image_url": "data:..."}]},
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "call_id": "c9", "name": "f", "arguments": "{}", "id": "x"},
        {"type": "function_call_output", "call_id": "c9", "output": "done"},
    ]  # fmt: skip
    turns = to_turns(items, "s")
    assert [t.role for t in turns] == ["user", "assistant", "assistant", "tool"]
    assert turns[0].text == "Hi" and turns[0].metadata == {"attachments": ["input_image"]}
    assert json.loads(turns[1].metadata["openai_item"]) == items[1]  # type: ignore[index]
    assert turns[2].tool_calls[0].id == "c9" and turns[3].tool_results[0].content == "done"


@pytest.mark.parametrize("limit", [None, 1])
def test_an_empty_session_has_no_items(graphql_url: str, namespace: str, limit: int | None) -> None:
    async def main() -> list[Any]:
        async with AsyncClient(graphql_url, namespace=namespace) as memory:
            return await HippographSession("none", memory).get_items(limit)

    assert run(main()) == []
