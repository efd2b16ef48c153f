"""The optional per-key request rate (``HIPPOGRAPH_RATE_LIMIT_PER_MINUTE``, api/ratelimit.py):
through the real app, a key over its rate gets RATE_LIMITED with HTTP 429 and Retry-After and
nothing of its request runs; another key keeps its own rate; MCP tool calls over HTTP count too;
the bucket refills at the rate."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.api.keys import KeyStore
from hippograph.api.ratelimit import RateLimiter
from hippograph.graph import memories
from hippograph.graph.errors import RateLimited
from hippograph.graph.model import MemoryFilter
from hippograph.graph.runtime import Runtime
from hippograph.settings import Settings
from tests.conftest import wipe

REMEMBER = """mutation($ns: String!, $c: String!) {
  remember(namespace: $ns, memory: {content: $c}) { memory { id } } }"""
PER_MINUTE = 6  # a burst of one (ten seconds' worth); the next in ten seconds


@pytest.fixture
def namespaces(runtime: Runtime) -> Iterator[tuple[str, str]]:
    names = (f"rate-a-{uuid.uuid4().hex[:8]}", f"rate-b-{uuid.uuid4().hex[:8]}")
    yield names
    for ns in names:
        wipe(runtime.store, ns)


def call(client: TestClient, token: str, query: str, **variables: Any) -> tuple[int, Any, Any]:
    response = client.post(
        "/graphql",
        json={"query": query, "variables": variables},
        headers={"Authorization": f"Bearer {token}"},
    )
    return response.status_code, response.json(), response.headers


def test_a_key_over_its_rate_is_refused_and_writes_nothing(
    runtime: Runtime, tmp_path: Path, namespaces: tuple[str, str]
) -> None:
    a, b = namespaces
    keys = KeyStore(tmp_path)
    key_a = keys.create("a", "write", [a]).token
    key_b = keys.create("b", "write", [b]).token
    settings: Settings = runtime.settings.with_(data_dir=tmp_path, rate_limit_per_minute=PER_MINUTE)
    with TestClient(create_app(settings, runtime=runtime)) as client:
        status, body, _ = call(client, key_a, REMEMBER, ns=a, c="Fact number 0 of A.")
        assert status == 200 and "errors" not in body, body
        status, body, headers = call(client, key_a, REMEMBER, ns=a, c="One too many for A.")
        assert status == 429
        (error,) = body["errors"]
        assert error["extensions"]["code"] == "RATE_LIMITED"
        assert error["extensions"]["limit"] == PER_MINUTE
        assert "HIPPOGRAPH_RATE_LIMIT_PER_MINUTE" in error["message"]
        assert int(headers["retry-after"]) == error["extensions"]["retryAfterS"] >= 1
        assert body["data"]["remember"] is None

        # Another key has its own bucket: B writes while A waits.
        status, body, _ = call(client, key_b, REMEMBER, ns=b, c="B is not slowed by A.")
        assert status == 200 and "errors" not in body, body

        # MCP tool calls over HTTP count against the same key's rate.
        response = client.post(
            "/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                  "params": {"name": "search", "arguments": {"query": "fact"}}},
            headers={"Authorization": f"Bearer {key_a}",
                     "Accept": "application/json, text/event-stream", "Host": "127.0.0.1:8000"},
        )  # fmt: skip
        assert response.status_code == 200, response.text
        result = response.json()["result"]
        assert result["isError"] is True
        assert "RATE_LIMITED" in result["content"][0]["text"]

    page = memories.list_memories(runtime.store, a, MemoryFilter(), first=100)
    assert sorted(m.content for m in page.items) == ["Fact number 0 of A."]


def test_the_bucket_refills_at_the_rate_and_off_means_off() -> None:
    now = [0.0]
    limiter = RateLimiter(60, clock=lambda: now[0])  # one a second, bursts of 10
    for _ in range(10):
        limiter.admit("k")
    with pytest.raises(RateLimited) as refused:
        limiter.admit("k")
    assert refused.value.retry_after_s == 1
    now[0] += 1.0
    limiter.admit("k")
    with pytest.raises(RateLimited):
        limiter.admit("k")
    limiter.admit("other")
    off = RateLimiter(0)
    for _ in range(10_000):
        off.admit("k")


def test_the_setting_is_checked() -> None:
    with pytest.raises(Exception, match="HIPPOGRAPH_RATE_LIMIT_PER_MINUTE"):
        Settings.from_env({"HIPPOGRAPH_RATE_LIMIT_PER_MINUTE": "-1"})
