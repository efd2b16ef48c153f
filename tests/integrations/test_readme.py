"""The framework examples of docs/agent-frameworks.md, run as written against the real app (its
URL and a test namespace put in place of the page's), each under 20 lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hippograph.client import Client

PAGE = Path(__file__).resolve().parents[2] / "docs" / "agent-frameworks.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
# Where each example's conversation lands in the ledger.
SESSIONS = ["t1", "chat-1", "chat-2"]


def test_there_is_one_short_example_per_framework() -> None:
    assert len(EXAMPLES) == 3
    assert all(len(code.splitlines()) < 20 for code in EXAMPLES)


@pytest.mark.parametrize("index", range(3), ids=["langgraph", "openai-agents", "pydantic-ai"])
def test_the_example_runs_and_its_turns_reach_the_ledger(
    index: int, graphql_url: str, namespace: str
) -> None:
    code = EXAMPLES[index]
    assert '"http://127.0.0.1:8000/graphql", namespace="demo"' in code
    code = code.replace("http://127.0.0.1:8000/graphql", graphql_url)
    exec(compile(code.replace('"demo"', repr(namespace)), "agent-frameworks.md", "exec"), {})
    with Client(graphql_url, namespace=namespace) as memory:
        turns = memory.conversation(SESSIONS[index]).turns
    assert [(t.role, t.text) for t in turns][:1] == [("user", "I keep bees.")]
    assert [t.role for t in turns] == ["user", "assistant"]
