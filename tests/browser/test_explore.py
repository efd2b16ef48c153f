"""The graph explorer at /explore in headless Chromium, with nothing reachable but the server."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest

from tests.browser.conftest import ARTIFACTS, PageRunner

pytestmark = pytest.mark.slow

CONTEXT = "Where does Ines sell her honey, and where are her bees?"
HOOD = """
query($ns: String!, $id: ID!, $sup: Boolean!) {
  neighbourhood(namespace: $ns, id: $id, depth: 1, includeSuperseded: $sup, limit: 40) {
    nodes { key kind memory { memoryType } } edges { source target type }
  }
}"""


def gql(base: str, query: str, **variables: Any) -> dict[str, Any]:
    body = httpx.post(f"{base}/graphql", json={"query": query, "variables": variables}).json()
    assert "errors" not in body, body
    return dict(body["data"])


def remember(base: str, ns: str, content: str, kind: str, tags: list[str]) -> str:
    made = gql(
        base,
        """mutation($ns: String!, $m: MemoryInput!) {
             remember(namespace: $ns, memory: $m) { memory { id } } }""",
        ns=ns,
        m={"content": content, "memoryType": kind, "tags": tags},
    )
    return str(made["remember"]["memory"]["id"])


def expected_graph(base: str, ns: str, ids: list[str], *, sup: bool) -> dict[str, Any]:
    """What the page must draw: the union of the API's neighbourhoods of the recalled ids."""
    nodes: dict[str, dict[str, Any]] = {}
    edges: set[str] = set()
    for memory_id in ids:
        hood = gql(base, HOOD, ns=ns, id=memory_id, sup=sup)["neighbourhood"]
        nodes.update({n["key"]: n for n in hood["nodes"]})
        edges |= {f"{e['type']} {e['source']} {e['target']}" for e in hood["edges"]}
    return {"nodes": nodes, "edges": edges}


def test_explorer_recalls_draws_the_neighbourhood_and_explains(
    server_url: str, run_page: PageRunner
) -> None:
    ns = f"browser-{uuid.uuid4().hex[:8]}"
    hives = remember(server_url, ns, "Ines keeps three hives of bees behind the station",
                     "FACT", ["bees"])  # fmt: skip
    honey = remember(server_url, ns, "Ines harvests heather honey from the station hives",
                     "FACT", ["bees", "honey"])  # fmt: skip
    raw = remember(server_url, ns, "Ines prefers raw honey to shop honey", "PREFERENCE", ["honey"])
    old = remember(server_url, ns, "Ines sells her honey at the Tuesday market", "FACT", ["market"])
    new = remember(server_url, ns, "Ines sells her honey at the Saturday market now", "FACT",
                   ["market"])  # fmt: skip
    gql(
        server_url,
        """mutation($ns: String!, $a: ID!, $b: ID!, $old: ID!, $new: ID!) {
             link(namespace: $ns, fromId: $a, toId: $b, weight: 0.9) { weight }
             supersede(namespace: $ns, oldId: $old, newId: $new, reason: "moved") { status } }""",
        ns=ns, a=hives, b=honey, old=old, new=new,
    )  # fmt: skip

    report = run_page(
        "explore",
        screenshot="explore.png",
        url=f"{server_url}/explore",
        namespace=ns,
        context=CONTEXT,
        clickKey=f"memory:{new}",
        hideType="PREFERENCE",
    )
    result = report["result"]
    assert result["loaded"]["status"] == 200
    assert result["loaded"]["title"] == "Hippograph explorer"
    assert result["loaded"]["cytoscape"] == "function"
    legend = result["loaded"]["legend"]
    assert all(w in legend for w in ("fact", "preference", "superseded", "archived", "tag"))
    assert all(w in legend for w in ("RELATES_TO", "SUPERSEDES", "CONTRADICTS", "DERIVED_FROM"))

    # The ranked list: the four active memories (the Tuesday one is replaced), best first,
    # each with its explanation.
    first, ranked = result["first"], result["list"]
    assert first["status"] == "ready", first["message"]
    assert {r["id"] for r in ranked} == {hives, honey, raw, new}
    scores = [r["score"] for r in ranked]
    assert scores == sorted(scores, reverse=True) and scores[0] > 0
    assert all(r["seedKinds"] and r["components"].startswith("relevance") for r in ranked)
    assert any("vector" in r["seedKinds"] for r in ranked), [r["seedKinds"] for r in ranked]

    # The graph is the union of the API's neighbourhoods of what was recalled.
    want = expected_graph(server_url, ns, [r["id"] for r in ranked], sup=False)
    assert first["nodeKeys"] == sorted(want["nodes"])
    assert first["edgeKeys"] == sorted(want["edges"])
    kinds = first["counts"]["byKind"]
    assert kinds["MEMORY"] == 4 and kinds["TAG"] >= 3, kinds
    assert {f"tag:{t}" for t in ("bees", "honey", "market")} <= set(first["nodeKeys"])
    assert f"RELATES_TO memory:{hives} memory:{honey}" in first["edgeKeys"]
    assert first["counts"]["nodes"] == len(want["nodes"]) == int(first["graph"]["nodes"])
    assert first["counts"]["edges"] == len(want["edges"]) == int(first["graph"]["edges"])
    assert first["counts"]["visibleNodes"] == first["counts"]["nodes"]

    # A click on the Saturday memory's node: its record, its history (what it replaced).
    details = result["details"]
    assert details["selected"] == f"memory:{new}"
    assert "Saturday market" in details["title"]
    assert new in details["record"] and "active" in details["record"]
    assert "Tuesday market" in details["history"] and "superseded" in details["history"]
    assert "ADD" in details["history"], "the remember's decision"
    assert "remembered directly" in details["provenance"]

    # Hiding preferences hides the one preference, in the graph and in the list.
    filtered = result["filtered"]
    raw_edges = [e for e in want["edges"] if f"memory:{raw}" in e.split()[1:]]
    assert filtered["visibleNodes"] == first["counts"]["nodes"] - 1
    assert filtered["visibleEdges"] == first["counts"]["edges"] - len(raw_edges)
    assert [r["id"] for r in result["listFiltered"] if r["hidden"]] == [raw]

    # Superseded memories on request: the Tuesday one and its SUPERSEDES edge appear.
    more = result["withSuperseded"]
    assert more["status"] == "ready"
    assert f"memory:{old}" in more["nodeKeys"]
    assert f"SUPERSEDES memory:{new} memory:{old}" in more["edgeKeys"]

    seen = report["seen"]
    assert seen["offsite"] == [], "every request stayed on the server: no CDN"
    assert seen["consoleErrors"] == []
    assert seen["requests"][0] == "GET /explore"
    assert "GET /static/vendor/cytoscape/dist/cytoscape.min.js" in seen["requests"]
    assert {r.split()[1] for r in seen["requests"]} <= {
        "/explore", "/static/pages/explore.js", "/static/pages/explore.css",
        "/static/vendor/cytoscape/dist/cytoscape.min.js", "/graphql",
    }, "the page reads the graph through /graphql only"  # fmt: skip
    shots = [ARTIFACTS / n for n in ("explore-recall.png", "explore-details.png", "explore.png")]
    assert report["screenshots"] == [str(p) for p in shots]
    assert all(p.stat().st_size > 10_000 for p in shots)
