"""Every read path of the API is scoped as recall is: the client's methods over GraphQL, the MCP
tools and the command line (search, export) see a session's memory only in that session, a
project's only in that project (tests/graph/test_scope_reads.py holds the rule itself)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client as McpClient
from mcp.client.streamable_http import streamable_http_client
from starlette.testclient import TestClient

from hippograph.api import cli
from hippograph.api.app import create_app
from hippograph.api.mcp import NAMESPACE_HEADER
from hippograph.client import Client, MemoryFilter, NotFound
from hippograph.graph.runtime import Runtime
from hippograph.settings import Settings
from tests.graph.scope_fixtures import CALLERS, SESSION_A, Seeded, seed
from tests.live_server import serve_in_thread


def _names(seeded: Seeded, ids: Iterable[str]) -> set[str]:
    return {n for i in ids for n in [seeded.name(str(i))] if n is not None}


@pytest.fixture
def client(runtime: Runtime, namespace: str) -> Iterator[Client]:
    with TestClient(create_app(runtime=runtime)) as http:
        yield Client("/graphql", namespace=namespace, http=http)


def test_every_client_read_sees_what_recall_sees(
    runtime: Runtime, namespace: str, client: Client
) -> None:
    seeded = seed(runtime, namespace)
    for (project, session), seen in CALLERS.items():
        who: dict[str, Any] = {"project": project, "session_id": session}
        recalled = client.recall("the Orion release, key, builds and notes", include_gap=True,
                                 **who)  # fmt: skip
        assert _names(seeded, (i.memory.id for i in recalled.items)) == seen, who
        page = client.memories(MemoryFilter(), first=50, **who)
        assert _names(seeded, (m.id for m in page.items)) == seen, who
        found = client.search("Orion", k=10, **who)
        assert _names(seeded, (s.memory.id for s in found)) == seen, who
        hood = client.neighbourhood(seeded.ids["global"], depth=2, **who)
        assert _names(seeded, (n["id"] for n in hood["nodes"] if n["kind"] == "MEMORY")) == seen
        (cluster,) = client.clusters(**who)
        assert _names(seeded, cluster["members"]) == seen, who
        via = [d["via"] for d in client.provenance(seeded.ids["global"], **who)]
        assert via == ([[seeded.ids["global"], seeded.ids["session_a"]]]
                       if "session_a" in seen else []), who  # fmt: skip
        listed = {e.name for e in client.entities(first=100, **who)}
        assert ("Ines Marques" in listed) == ("session_a" in seen), who
        orion = client.entity("Orion", timeline=50, **who)
        assert _names(seeded, (t.memory.id for t in orion.timeline)) == seen, who
        for name, memory_id in seeded.ids.items():
            if name in seen:
                assert client.memory(memory_id, **who).id == memory_id
                continue
            with pytest.raises(NotFound):
                client.memory(memory_id, **who)
            with pytest.raises(NotFound):
                client.neighbourhood(memory_id, **who)
            with pytest.raises(NotFound):
                client.provenance(memory_id, **who)
        if "session_a" not in seen:
            with pytest.raises(NotFound):
                client.entity("Ines Marques", **who)


@pytest.fixture
def mcp_url(runtime: Runtime) -> Iterator[str]:
    with serve_in_thread(create_app(runtime=runtime)) as base:
        yield f"{base}/mcp"


def test_the_mcp_tools_see_what_recall_sees(runtime: Runtime, namespace: str, mcp_url: str) -> None:
    seeded = seed(runtime, namespace)
    answers: dict[tuple[str | None, str | None], dict[str, Any]] = {}

    async def main() -> None:
        async with (
            httpx2.AsyncClient(headers={NAMESPACE_HEADER: namespace}, timeout=120) as http,
            McpClient(streamable_http_client(mcp_url, http_client=http)) as mcp,
        ):
            for project, session in CALLERS:
                who = {k: v for k, v in (("project", project), ("sessionId", session)) if v}
                got: dict[str, Any] = {}
                for tool, arguments in (
                    ("recall", {"context": "the Orion release, key, builds and notes",
                                "includeGap": True}),
                    ("search", {"query": "Orion", "k": 10}),
                    ("list", {"first": 50}),
                    ("entities", {"first": 100}),
                    ("entity", {"name": "Orion"}),
                    ("entity", {"name": "Ines Marques"}),
                ):  # fmt: skip
                    result = await mcp.call_tool(tool, {**arguments, **who})
                    key = f"{tool}:{arguments.get('name', '')}"
                    got[key] = None if result.is_error else result.structured_content
                answers[(project, session)] = got

    anyio.run(main)
    for caller, seen in CALLERS.items():
        got = answers[caller]
        assert (
            _names(seeded, (i["memory"]["id"] for i in got["recall:"]["recall"]["items"])) == seen
        )
        assert _names(seeded, (s["memory"]["id"] for s in got["search:"]["results"])) == seen
        assert _names(seeded, (m["id"] for m in got["list:"]["memories"]["items"])) == seen
        names = {e["name"] for e in got["entities:"]["entities"]}
        assert ("Ines Marques" in names) == ("session_a" in seen), caller
        timeline = got["entity:Orion"]["entity"]["timeline"]
        assert _names(seeded, (t["memory"]["id"] for t in timeline)) == seen, caller
        assert (got["entity:Ines Marques"] is not None) == ("session_a" in seen), caller


@pytest.mark.slow
def test_the_command_line_searches_and_exports_what_a_caller_sees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = Settings.from_env({}, data_dir=tmp_path / "data")
    rt = Runtime.open(settings, attach=False)
    try:
        seeded = seed(rt, "cli")
    finally:
        rt.close()

    def run(*argv: str) -> str:
        args = cli.build_parser().parse_args(list(argv))
        assert int(args.command(args, settings)) == 0
        return capsys.readouterr().out

    for (project, session), seen in CALLERS.items():
        who = [*(["--project", project] if project else []),
               *(["--session", session] if session else [])]  # fmt: skip
        out = run("search", "Orion", "-n", "cli", *who)
        assert {n for n, i in seeded.ids.items() if i in out} == seen, who
        if not who:
            continue
        target = tmp_path / f"{project}-{session}.jsonl"
        run("export", "-n", "cli", "-o", str(target), *who)
        text = target.read_text(encoding="utf-8")
        assert {n for n, i in seeded.ids.items() if i in text} == seen, who
        assert (SESSION_A in text) == ("session_a" in seen)
        assert all(json.loads(line)["kind"] for line in text.splitlines())
    whole = tmp_path / "whole.jsonl"
    run("export", "-n", "cli", "-o", str(whole))
    assert all(i in whole.read_text(encoding="utf-8") for i in seeded.ids.values())
