"""The MCP server driven by the MCP SDK's own client: over Streamable HTTP against the real app
in a real uvicorn server, and over stdio against a spawned ``hippograph mcp``."""

from __future__ import annotations

import json
import os
import sys
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from hippograph.api.app import create_app
from hippograph.api.mcp import NAMESPACE_HEADER
from hippograph.graph.runtime import Runtime
from tests.conftest import wipe
from tests.live_server import serve_in_thread

TOOL_NAMES = {
    "remember", "recall", "search", "list", "forget", "link", "tag", "untag", "supersede",
    "history", "ingest", "feedback", "context", "observe", "pending", "used", "core",
    "profile", "sessions", "conversation", "erase_turn", "clear_session", "erase",
    "entity", "entities", "define_entity", "relate", "merge_entities", "split_entity",
    "start_run", "add_step", "add_tool_call", "update_tool_call", "finish_run", "get_run",
    "similar_runs", "tool_stats",
}  # fmt: skip
EXE = str(Path(sys.executable).parent / "hippograph")


@pytest.fixture(scope="module")
def mcp_url(arcadedb_runtime: Runtime) -> Iterator[str]:
    with serve_in_thread(create_app(runtime=arcadedb_runtime)) as base:
        yield f"{base}/mcp"


Session = Callable[[str, dict[str, Any]], Awaitable[types.CallToolResult]]


def over_http(url: str, namespace: str | None, work: Callable[[Client], Awaitable[None]]) -> None:
    async def main() -> None:
        headers = {NAMESPACE_HEADER: namespace} if namespace else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=120) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            await work(client)

    anyio.run(main)


async def ok(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Call a tool that must succeed; the SDK client has checked the output against its schema."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    assert json.loads(text.text) == result.structured_content
    return result.structured_content


async def failed(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Call a tool that must fail; returns the error body (code, message, details)."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    body: dict[str, Any] = json.loads(text.text)
    return body


def test_lists_every_tool_with_schemas_and_truthful_annotations(mcp_url: str) -> None:
    async def work(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == TOOL_NAMES
        for tool in tools.values():
            assert tool.output_schema is not None and tool.output_schema["type"] == "object"
            assert "namespace" not in tool.input_schema["properties"]
            assert tool.annotations is not None and tool.description
        hints = {
            n: (a.read_only_hint, a.destructive_hint, a.idempotent_hint)
            for n, t in tools.items()
            if (a := t.annotations) is not None
        }
        assert hints["search"][0] and hints["list"][0] and hints["history"][0]
        assert hints["pending"] == (True, False, True)
        # recall writes (returned counts, session state, gaps): it must not claim read-only
        assert hints["recall"] == (False, False, False)
        assert hints["forget"] == (False, True, True)
        assert hints["remember"] == (False, False, False)
        assert tools["remember"].input_schema["required"] == ["memories"]
        assert tools["recall"].input_schema["properties"]["k"] == {"type": "integer", "default": 10}

    over_http(mcp_url, None, work)


def test_every_tool_round_trips_over_http(mcp_url: str, namespace: str) -> None:
    async def work(client: Client) -> None:
        done = await ok(client, "remember", {"memories": [
            {"content": "Ada prefers green tea in the morning", "memoryType": "PREFERENCE",
             "tags": ["drinks"]},
            {"content": "Ada works at the observatory on Tuesdays"},
        ]})  # fmt: skip
        assert [r["created"] for r in done["remembered"]] == [True, True]
        tea, work_id = (r["memory"]["id"] for r in done["remembered"])
        assert done["remembered"][0]["memory"]["namespace"] == namespace
        assert done["remembered"][0]["memory"]["memoryType"] == "PREFERENCE"

        recalled = await ok(client, "recall", {"context": "what should I brew for Ada?",
                                                "k": 3, "explain": True})  # fmt: skip
        assert recalled["recall"]["items"][0]["memory"]["id"] == tea
        assert recalled["recall"]["items"][0]["explanation"]["seedKinds"]

        found = await ok(client, "search", {"query": "Ada's drink", "k": 1})
        assert [r["memory"]["id"] for r in found["results"]] == [tea]

        listed = await ok(client, "list", {"filter": {"memoryType": "PREFERENCE"}})
        assert [m["id"] for m in listed["memories"]["items"]] == [tea]
        page = await ok(client, "list", {"first": 1})
        assert page["memories"]["nextCursor"] is not None
        rest = await ok(client, "list", {"first": 5, "after": page["memories"]["nextCursor"]})
        assert len(page["memories"]["items"] + rest["memories"]["items"]) == 2

        tagged = await ok(client, "tag", {"id": tea, "tags": ["morning"]})
        assert set(tagged["memory"]["tags"]) >= {"drinks", "morning"}
        untagged = await ok(client, "untag", {"id": tea, "tags": ["morning"]})
        assert "morning" not in untagged["memory"]["tags"]

        linked = await ok(client, "link", {"fromId": tea, "toId": work_id, "weight": 0.5})
        assert linked["link"]["weight"] == 0.5

        rated = await ok(client, "feedback", {"memoryId": tea, "helpful": True})
        assert rated["feedback"]["helpfulCount"] == 1

        newer = await ok(client, "remember", {"memories": [
            {"content": "Ada works at the observatory on Thursdays now"}]})  # fmt: skip
        new_id = newer["remembered"][0]["memory"]["id"]
        if newer["remembered"][0]["action"] != "SUPERSEDE":
            old = await ok(client, "supersede", {"oldId": work_id, "newId": new_id,
                                                  "reason": "moved day"})  # fmt: skip
            assert old["superseded"]["status"] == "SUPERSEDED"
            assert old["superseded"]["supersededBy"] == new_id
        history = await ok(client, "history", {"memoryId": new_id})
        assert [r["id"] for r in history["history"]["supersedes"]] == [work_id]

        forgotten = await ok(client, "forget", {"id": work_id, "hard": True})
        assert forgotten == {"forgotten": work_id}
        everything = await ok(client, "list", {"filter": {"status": None}, "first": 50})
        assert work_id not in {m["id"] for m in everything["memories"]["items"]}

        ingested = await ok(client, "ingest", {"flush": True, "turns": [
            {"sessionId": "s1", "turnIndex": 0, "speaker": "Ada", "text": "I adopted a cat."},
            {"sessionId": "s1", "turnIndex": 1, "speaker": "Ada", "text": "Her name is Io."},
        ]})  # fmt: skip
        assert ingested["ingest"]["stored"] == 2 and ingested["ingest"]["extractedTurns"] == 2
        again = await ok(
            client,
            "ingest",
            {
                "turns": [
                    {
                        "sessionId": "s1",
                        "turnIndex": 0,
                        "speaker": "Ada",
                        "text": "I adopted a cat.",
                    }
                ]
            },
        )
        assert again["ingest"]["stored"] == 0 and again["ingest"]["duplicates"] == 1

        bundle = await ok(client, "context", {"context": "what should I brew for Ada?",
                                               "budget": 120})  # fmt: skip
        assert 0 < bundle["context"]["tokens"] <= 120
        assert "Ada prefers green tea in the morning" in bundle["context"]["text"]
        assert tea in {i["id"] for i in bundle["context"]["items"]}
        used = await ok(client, "used", {"memoryIds": [tea]})
        assert used["used"]["memoriesTouched"] == 1
        seen = await ok(client, "observe", {"sessionId": "turns", "context": "Ada's tea"})
        assert seen["observe"]["accepted"] is True
        for _ in range(100):  # the bundle is built in the background
            pending = await ok(client, "pending", {"sessionId": "turns"})
            if pending["pending"] is not None:
                break
            await anyio.sleep(0.1)
        assert pending["pending"]["context"] == "Ada's tea"
        block = await ok(client, "core", {})
        assert block["core"]["version"] == 0 and block["coreChanges"] == []
        prof = await ok(client, "profile", {})
        assert prof["profile"] == {"version": 0, "updatedAt": None, "entries": [], "skills": []}
        assert "green tea" in pending["pending"]["bundle"]["text"]

        listed_sessions = await ok(client, "sessions", {})
        assert [(s["sessionId"], s["turns"]) for s in listed_sessions["sessions"]["items"]] == [
            ("s1", 2)
        ]
        talk = await ok(client, "conversation", {"sessionId": "s1", "direction": "BACKWARD"})
        turns = talk["conversation"]["turns"]
        assert [t["text"] for t in turns] == ["Her name is Io.", "I adopted a cat."]
        planned = await ok(client, "erase", {"text": "adopted", "dryRun": True})
        assert planned["erased"]["turns"] == 1 and planned["erased"]["dryRun"] is True
        erased = await ok(client, "erase_turn", {"id": turns[1]["id"]})
        assert erased["erased"]["turns"] == 1
        cleared = await ok(client, "clear_session", {"sessionId": "s1"})
        assert cleared["erased"]["turns"] == 1
        assert (await ok(client, "sessions", {}))["sessions"]["items"] == []

    over_http(mcp_url, namespace, work)


def test_failures_are_tool_errors_with_the_typed_code(mcp_url: str, namespace: str) -> None:
    async def work(client: Client) -> None:
        empty = await failed(client, "remember", {"memories": [{"content": "   "}]})
        assert empty["code"] == "BAD_INPUT" and "content" in empty["field"]
        too_many = await failed(client, "recall", {"context": "anything", "k": 100_000})
        assert too_many["code"] == "BAD_INPUT" and too_many["limit"] == 200
        missing = await failed(client, "history", {"memoryId": str(uuid.uuid4())})
        assert missing["code"] == "NOT_FOUND" and missing["kind"] == "memory"
        not_uuid = await failed(client, "forget", {"id": "nope"})
        assert not_uuid["code"] == "BAD_INPUT" and not_uuid["field"] == "id"
        other_ns = await failed(client, "list", {"namespace": "someone-else"})
        assert other_ns["code"] == "BAD_INPUT" and other_ns["field"] == "namespace"
        wrong_type = await failed(client, "search", {"query": "tea", "k": "three"})
        assert wrong_type["code"] == "BAD_USER_INPUT" and "$k" in wrong_type["message"]
        listed = await ok(client, "list", {"filter": {"status": None}})
        assert listed["memories"]["items"] == []  # nothing was written by the failures

    over_http(mcp_url, namespace, work)


def test_namespace_comes_from_the_header_and_a_bad_one_is_refused(
    mcp_url: str, namespace: str, arcadedb_runtime: Runtime
) -> None:
    other = f"{namespace}-b"

    async def write(client: Client) -> None:
        await ok(client, "remember", {"memories": [{"content": "Bob collects stamps"}]})

    async def read_other(client: Client) -> None:
        listed = await ok(client, "list", {})
        assert listed["memories"]["items"] == []

    async def bad_header(client: Client) -> None:
        body = await failed(client, "list", {})
        assert body["code"] == "BAD_INPUT" and body["field"] == NAMESPACE_HEADER

    try:
        over_http(mcp_url, namespace, write)
        over_http(mcp_url, other, read_other)
        over_http(mcp_url, "not a namespace!", bad_header)
    finally:
        wipe(arcadedb_runtime.store, other)


@pytest.mark.slow
def test_stdio_server_answers_the_sdk_client(tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=EXE,
        args=["mcp", "--namespace", "agent-7", "--data-dir", str(tmp_path / "data")],
        env={**os.environ, "HIPPOGRAPH_MCP_NAMESPACE": "ignored-by-the-flag"},
        cwd=str(tmp_path),
    )

    async def main() -> None:
        async with Client(params, read_timeout_seconds=300) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            assert tools == TOOL_NAMES
            done = await ok(client, "remember", {"memories": [
                {"content": "The deploy key lives in the team vault"}]})  # fmt: skip
            memory = done["remembered"][0]["memory"]
            assert memory["namespace"] == "agent-7"
            recalled = await ok(client, "recall", {"context": "where is the deploy key?"})
            assert recalled["recall"]["items"][0]["memory"]["id"] == memory["id"]
            bad = await failed(client, "supersede", {"oldId": memory["id"], "newId": memory["id"]})
            assert bad["code"] == "BAD_INPUT" and bad["field"] == "newId"

    anyio.run(main)


def test_the_entity_tools_answer_everything_about_a_person(mcp_url: str, namespace: str) -> None:
    async def work(client: Client) -> None:
        await ok(client, "remember", {"memories": [{"content": "My sister Ana lives in Porto."}]})
        related = await ok(client, "relate", {"from": "Ana", "type": "works_at", "to": "Acme"})
        assert [(r["type"], r["otherName"]) for r in related["relate"]] == [("WORKS_AT", "Acme")]
        found = await ok(client, "entity", {"name": "the user's sister"})
        view = found["entity"]
        assert view["entity"]["name"] == "Ana"
        assert {(r["type"], r["otherName"]) for r in view["relationships"]} == {
            ("SISTER_OF", "the user"), ("LIVES_IN", "Porto"), ("WORKS_AT", "Acme"),
        }  # fmt: skip
        assert [m["content"] for m in view["memories"]] == ["My sister Ana lives in Porto."]
        people = await ok(client, "entities", {"kind": "person"})
        assert {e["name"] for e in people["entities"]} == {"Ana", "the user"}
        merged = await ok(client, "merge_entities", {"from": "Porto", "into": "Acme"})
        porto = (await ok(client, "entity", {"name": "Porto"}))["entity"]
        assert porto["entity"]["uid"] == merged["entity"]["uid"] and porto["merged"]
        split = await ok(client, "split_entity", {"id": porto["merged"][0]["uid"]})
        assert split["entity"]["name"] == "Porto" and split["entity"]["mergedInto"] is None

    over_http(mcp_url, namespace, work)
