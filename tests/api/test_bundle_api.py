"""``context`` through the real app (GraphQL) and the ``hippograph context`` command."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from hippograph.api import cli_context
from hippograph.graph.model import NewMemory
from hippograph.graph.models.tokens import TokenCounter
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath
from hippograph.settings import Settings

CONTEXT = """
query($ns: String!, $c: String!, $b: Int!, $f: ContextFormat!) {
  context(namespace: $ns, context: $c, budget: $b, format: $f) {
    text tokens budget format exactTokens dropped gap items { ref id section score truncated }
  }
}"""


def test_context_over_graphql(client: TestClient, runtime: Runtime, namespace: str) -> None:
    stored = writepath.remember(
        runtime.store,
        runtime.embedder,
        namespace,
        [
            NewMemory(content="Ada prefers green tea in the morning.", memory_type="preference"),
            NewMemory(content="Ada drinks espresso after lunch."),
            NewMemory(content="Ada's cat is called Miso."),
        ],
        policy=runtime.policy,
    )
    ids = {r.memory.id for r in stored}
    variables = {"ns": namespace, "c": "what does Ada drink", "b": 120, "f": "MARKDOWN"}
    body = client.post("/graphql", json={"query": CONTEXT, "variables": variables}).json()
    assert "errors" not in body, body
    found = body["data"]["context"]
    assert found["budget"] == 120 and found["format"] == "MARKDOWN" and found["exactTokens"]
    assert 0 < found["tokens"] <= 120
    assert found["tokens"] == TokenCounter(runtime.embedder.model_path).count(found["text"])
    assert "## Preferences\n- [1] (" in found["text"]
    assert "Ada prefers green tea in the morning." in found["text"]
    assert {i["id"] for i in found["items"]} <= ids
    assert [i["ref"] for i in found["items"]] == list(range(1, len(found["items"]) + 1))

    variables["b"] = 0
    body = client.post("/graphql", json={"query": CONTEXT, "variables": variables}).json()
    assert body["data"] is None
    assert body["errors"][0]["extensions"]["code"] == "BAD_INPUT"
    assert body["errors"][0]["extensions"]["field"] == "budget"


@pytest.mark.slow
def test_context_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings.from_env({}, data_dir=tmp_path / "data")
    rt = Runtime.open(settings, attach=False)
    try:
        writepath.remember(
            rt.store,
            rt.embedder,
            "cli",
            [NewMemory(content="Ben takes the weekend on-call shifts.")],
            policy=rt.policy,
        )
    finally:
        rt.close()
    parser = argparse.ArgumentParser(prog="hippograph")
    cli_context.register(parser.add_subparsers(required=True))
    args = parser.parse_args(["context", "who is on call at the weekend", "-n", "cli"])
    assert args.command(args, settings) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("## Facts\n- [1] (")
    assert "Ben takes the weekend on-call shifts." in captured.out
    assert "of 1000 tokens, 1 items, 0 left out; [1] " in captured.err


OBSERVE = """
mutation($ns: String!, $s: String!, $c: String!) {
  observe(namespace: $ns, sessionId: $s, context: $c, budget: 150) { accepted replaced waiting }
}"""
PENDING = """
query($ns: String!, $s: String!) {
  pending(namespace: $ns, sessionId: $s) {
    context observedAt finishedAt ageMs error bundle { text tokens items { id } }
  }
}"""


def test_next_turn_mode_over_graphql(client: TestClient, runtime: Runtime, namespace: str) -> None:
    writepath.remember(
        runtime.store,
        runtime.embedder,
        namespace,
        [NewMemory(content="The staging database is refreshed every Sunday night.")],
        policy=runtime.policy,
    )
    variables = {"ns": namespace, "s": "turns-1"}
    body = client.post("/graphql", json={"query": PENDING, "variables": variables}).json()
    assert body == {"data": {"pending": None}}
    variables["c"] = "when is staging refreshed"
    body = client.post("/graphql", json={"query": OBSERVE, "variables": variables}).json()
    assert body["data"]["observe"]["accepted"] is True
    assert runtime.next_turn is not None and runtime.next_turn.settle()
    del variables["c"]
    body = client.post("/graphql", json={"query": PENDING, "variables": variables}).json()
    pending = body["data"]["pending"]
    assert pending["context"] == "when is staging refreshed" and pending["error"] is None
    assert pending["ageMs"] >= 0 and pending["observedAt"] <= pending["finishedAt"]
    assert "refreshed every Sunday night" in pending["bundle"]["text"]
    assert 0 < pending["bundle"]["tokens"] <= 150
    variables["s"] = "x" * 300
    body = client.post("/graphql", json={"query": PENDING, "variables": variables}).json()
    assert body["errors"][0]["extensions"] == {
        "code": "BAD_INPUT",
        "field": "sessionId",
        "limit": 256,
    }
