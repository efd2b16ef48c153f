"""GraphiQL at /graphql in headless Chromium, with nothing reachable but the server itself."""

from __future__ import annotations

import uuid

import pytest

from tests.browser.conftest import ARTIFACTS, PageRunner

pytestmark = pytest.mark.slow

CONTENT = "Ines keeps three hives of bees behind the station"


def test_graphiql_runs_a_remember_and_a_search_offline(
    server_url: str, run_page: PageRunner
) -> None:
    report = run_page(
        "graphiql",
        screenshot="graphiql.png",
        url=f"{server_url}/graphql",
        namespace=f"browser-{uuid.uuid4().hex[:8]}",
        content=CONTENT,
        question="who keeps bees?",
    )
    loaded, remember, search = (report["result"][k] for k in ("loaded", "remember", "search"))
    assert loaded == {
        "status": 200,
        "title": "Hippograph GraphiQL",
        "loadingLeft": False,
        "runButton": True,
    }
    assert "query: Query\nmutation: Mutation" in report["result"]["docs"]
    assert "MemoryInput" in report["result"]["docs"], "the schema came in through the page"
    made = remember["json"]["data"]["remember"]
    assert made["created"] is True
    assert made["memory"]["content"] == CONTENT
    assert "browser" in made["memory"]["tags"]  # with the tags the write path adds itself
    hit = search["json"]["data"]["search"]
    assert [h["memory"]["content"] for h in hit] == [CONTENT]
    assert 0.3 < hit[0]["score"] <= 1.0
    assert CONTENT in search["shown"], "the response pane shows the result"
    seen = report["seen"]
    assert seen["offsite"] == [], "every file came from the server: no CDN"
    assert seen["consoleErrors"] == []
    # The page, its files, the schema introspection, then the two operations.
    assert seen["requests"][0] == "GET /graphql"
    assert "GET /static/vendor/graphiql/graphiql.min.js" in seen["requests"]
    assert seen["requests"].count("POST /graphql") >= 3
    shots = [ARTIFACTS / "graphiql-docs.png", ARTIFACTS / "graphiql.png"]
    assert report["screenshots"] == [str(p) for p in shots]
    assert all(p.stat().st_size > 10_000 for p in shots)
