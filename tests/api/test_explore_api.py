"""The graph explorer's queries (neighbourhood, clusters, provenance) and its page at /explore,
through the real app (TestClient) on the embedded engine."""

from __future__ import annotations

import re
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.api.web import EXPLORER_FILES, missing
from hippograph.graph import explore
from hippograph.graph.runtime import Runtime
from hippograph.jobs import registry
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import RunOptions
from hippograph.settings import Settings
from tests.api.conftest import post
from tests.conftest import wipe
from tests.jobs.conftest import add_memory

HTML = {"Accept": "text/html"}
WEB_DIR = Settings.from_env({}).server.web_dir
HOOD = """
query($ns: String!, $id: ID!, $depth: Int! = 1, $sup: Boolean! = false, $arch: Boolean! = false,
      $limit: Int! = 100) {
  neighbourhood(namespace: $ns, id: $id, depth: $depth, includeSuperseded: $sup,
                includeArchived: $arch, limit: $limit) {
    root truncated
    nodes { key kind id label depth tagCount clusterSize
            memory { id content status memoryType } episode { uid text } }
    edges { source target type weight confidence kind resolved }
  }
}"""
PROVENANCE = "query($ns: String!, $id: ID!) { provenance(namespace: $ns, memoryId: $id) { via } }"
REMEMBER = """
mutation($ns: String!, $m: MemoryInput!) { remember(namespace: $ns, memory: $m) { memory { id } } }
"""


def gql(client: TestClient, query: str, **variables: Any) -> dict[str, Any]:
    body = post(client, query, **variables)
    assert "errors" not in body, body["errors"]
    return dict(body["data"])


def remember(client: TestClient, ns: str, content: str, **fields: Any) -> str:
    made = gql(client, REMEMBER, ns=ns, m={"content": content, **fields})
    return str(made["remember"]["memory"]["id"])


def hood(client: TestClient, ns: str, memory_id: str, **args: Any) -> dict[str, Any]:
    return dict(gql(client, HOOD, ns=ns, id=memory_id, **args)["neighbourhood"])


def keys(found: dict[str, Any], kind: str) -> set[str]:
    return {n["id"] for n in found["nodes"] if n["kind"] == kind.upper()}


def edge_set(found: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(e["type"], e["source"], e["target"]) for e in found["edges"]}


@pytest.fixture
def beekeeping(client: TestClient, namespace: str) -> dict[str, str]:
    """Five memories: a RELATES_TO link, a supersession, a contradiction, an archived one."""
    ids = {
        "hives": remember(client, namespace, "Ines keeps three hives behind the station",
                          tags=["bees"]),
        "honey": remember(client, namespace, "The station hives give heather honey in August",
                          tags=["bees", "honey"]),
        "leeds": remember(client, namespace, "Ines lives in Leeds", memoryType="FACT"),
        "york": remember(client, namespace, "Ines moved to York in May", memoryType="FACT"),
        "wasps": remember(client, namespace, "Wasps robbed one of the hives", tags=["bees"]),
    }  # fmt: skip
    link = """mutation($ns: String!, $a: ID!, $b: ID!, $r: Relation!, $w: Float!) {
      link(namespace: $ns, fromId: $a, toId: $b, relation: $r, weight: $w) { weight } }"""
    gql(client, link, ns=namespace, a=ids["hives"], b=ids["honey"], r="RELATES_TO", w=0.8)
    gql(client, link, ns=namespace, a=ids["honey"], b=ids["leeds"], r="CONTRADICTS", w=0.5)
    supersede = """mutation($ns: String!, $old: ID!, $new: ID!) {
      supersede(namespace: $ns, oldId: $old, newId: $new, reason: "moved") { status } }"""
    gql(client, supersede, ns=namespace, old=ids["leeds"], new=ids["york"])
    forget = "mutation($ns: String!, $id: ID!) { forget(namespace: $ns, id: $id) }"
    gql(client, forget, ns=namespace, id=ids["wasps"])
    return ids


def test_neighbourhood_of_a_memory_has_its_tags_links_and_weights(
    client: TestClient, namespace: str, beekeeping: dict[str, str]
) -> None:
    hives, honey = beekeeping["hives"], beekeeping["honey"]
    found = hood(client, namespace, hives)
    assert found["root"] == f"memory:{hives}" and found["truncated"] is False
    assert keys(found, "memory") == {hives, honey}, "the archived one and Leeds stay out"
    assert "bees" in keys(found, "tag")
    assert [n["depth"] for n in found["nodes"] if n["id"] == hives] == [0]
    assert all(n["depth"] == 1 for n in found["nodes"] if n["id"] != hives)
    node_keys = [n["key"] for n in found["nodes"]]
    assert len(node_keys) == len(set(node_keys))
    assert all(e["source"] in node_keys and e["target"] in node_keys for e in found["edges"])
    [relates] = [e for e in found["edges"] if e["type"] == "RELATES_TO"]
    assert relates == {
        "source": f"memory:{hives}", "target": f"memory:{honey}", "type": "RELATES_TO",
        "weight": 0.8, "confidence": relates["confidence"], "kind": "explicit", "resolved": None,
    }  # fmt: skip
    assert 0 < relates["confidence"] <= 1
    # Both memories carry the tag: the edges among the nodes found include the neighbour's.
    assert {("HAS_TAG", f"memory:{m}", "tag:bees") for m in (hives, honey)} <= edge_set(found)
    [bees] = [n for n in found["nodes"] if n["key"] == "tag:bees"]
    assert bees["tagCount"] == 3 and bees["label"] == "bees" and bees["memory"] is None

    deeper = hood(client, namespace, hives, depth=2)
    assert "honey" in keys(deeper, "tag"), "the neighbour's own tag, two hops away"
    contradiction = ("CONTRADICTS", f"memory:{honey}", f"memory:{beekeeping['leeds']}")
    assert contradiction not in edge_set(deeper), "Leeds is superseded: not walked through"
    with_history = hood(client, namespace, hives, depth=2, sup=True)
    assert contradiction in edge_set(with_history)
    [edge] = [e for e in with_history["edges"] if e["type"] == "CONTRADICTS"]
    assert (edge["weight"], edge["resolved"]) == (0.5, False)


def test_a_hub_is_shown_but_not_walked_through(
    client: TestClient, namespace: str, beekeeping: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tag on more memories than HUB_DEGREE shows with its count; the memories reached only
    through it stay out of the neighbourhood."""
    hives = beekeeping["hives"]
    candles = remember(client, namespace, "Ines sells beeswax candles at the market", tags=["bees"])
    assert candles in keys(hood(client, namespace, hives, depth=2), "memory")  # through the tag
    monkeypatch.setattr(explore, "HUB_DEGREE", 3)
    found = hood(client, namespace, hives, depth=2)
    [bees] = [n for n in found["nodes"] if n["key"] == "tag:bees"]
    assert bees["tagCount"] == 4 and bees["depth"] == 1
    assert candles not in keys(found, "memory")
    assert beekeeping["honey"] in keys(found, "memory")  # linked directly: still found


def test_superseded_and_archived_memories_show_on_request(
    client: TestClient, namespace: str, beekeeping: dict[str, str]
) -> None:
    leeds, york, wasps = beekeeping["leeds"], beekeeping["york"], beekeeping["wasps"]
    assert leeds not in keys(hood(client, namespace, york), "memory")
    shown = hood(client, namespace, york, sup=True)
    assert ("SUPERSEDES", f"memory:{york}", f"memory:{leeds}") in edge_set(shown)
    [old] = [n["memory"] for n in shown["nodes"] if n["id"] == leeds]
    assert old["status"] == "SUPERSEDED"
    # The start memory is shown whatever its status; its successor is active.
    from_old = hood(client, namespace, leeds)
    assert keys(from_old, "memory") >= {leeds, york}
    assert wasps not in keys(hood(client, namespace, beekeeping["hives"], depth=2), "memory")
    archived = hood(client, namespace, beekeeping["hives"], depth=2, arch=True)
    assert wasps in keys(archived, "memory")
    [node] = [n["memory"] for n in archived["nodes"] if n["id"] == wasps]
    assert node["status"] == "ARCHIVED"


def test_limit_truncates_the_walk(
    client: TestClient, namespace: str, beekeeping: dict[str, str]
) -> None:
    found = hood(client, namespace, beekeeping["hives"], depth=3, limit=2)
    assert len(found["nodes"]) == 2 and found["truncated"] is True
    assert found["nodes"][0]["key"] == f"memory:{beekeeping['hives']}"


@pytest.mark.parametrize(
    ("args", "field", "limit"),
    [
        ({"depth": explore.MAX_DEPTH + 1}, "depth", explore.MAX_DEPTH),
        ({"depth": 0}, "depth", explore.MAX_DEPTH),
        ({"limit": explore.MAX_NODES + 1}, "limit", explore.MAX_NODES),
        ({"limit": 0}, "limit", explore.MAX_NODES),
    ],
)
def test_bounds_are_typed_errors_naming_the_field_and_limit(
    client: TestClient, namespace: str, args: dict[str, int], field: str, limit: int
) -> None:
    memory_id = remember(client, namespace, "Ines sells honey at the Saturday market")
    body = post(client, HOOD, ns=namespace, id=memory_id, **args)
    [error] = body["errors"]
    assert error["extensions"] == {"code": "BAD_INPUT", "field": field, "limit": limit}
    assert error["message"].startswith(f"{field}: ") and f"1..{limit}" in error["message"]
    assert body["data"] is None


def test_an_id_of_another_namespace_is_missing_like_an_unknown_one(
    client: TestClient, namespace: str
) -> None:
    other = f"test-{uuid.uuid4().hex[:12]}"
    try:
        theirs = remember(client, other, "Ines's neighbour keeps goats")
        tagged = remember(client, namespace, "Ines keeps goats too", tags=["goats"])
        unknown = str(uuid.uuid4())
        for memory_id in (theirs, unknown):
            [error] = post(client, HOOD, ns=namespace, id=memory_id)["errors"]
            assert error["extensions"] == {
                "code": "NOT_FOUND", "kind": "memory", "id": memory_id, "field": "id",
            }  # fmt: skip
            assert error["message"] == f"id: memory {memory_id!r} does not exist in this namespace"
            [error] = post(client, PROVENANCE, ns=namespace, id=memory_id)["errors"]
            assert error["extensions"]["code"] == "NOT_FOUND"
            assert error["extensions"]["field"] == "memoryId"
        # Their memory with the same tag name is not reached through ours.
        remember(client, other, "The goats escaped again", tags=["goats"])
        found = hood(client, namespace, tagged, depth=3)
        assert keys(found, "memory") == {tagged}
        [goats] = [n for n in found["nodes"] if n["key"] == "tag:goats"]
        assert goats["tagCount"] == 1
        [error] = post(client, HOOD, ns=namespace, id="not-a-uuid")["errors"]
        assert error["extensions"]["code"] == "BAD_INPUT" and error["extensions"]["field"] == "id"
    finally:
        wipe(client.app.state.runtime.store, other)  # type: ignore[attr-defined]


def test_provenance_and_episodes_from_ingested_turns(client: TestClient, namespace: str) -> None:
    turns = [
        {"sessionId": "s1", "turnIndex": 0, "speaker": "Sam", "text": "I work at Google.",
         "timestamp": "2024-01-01T10:00:00Z"},
        {"sessionId": "s1", "turnIndex": 1, "speaker": "Sam",
         "text": "I now work at Microsoft.", "timestamp": "2024-03-01T10:00:00Z"},
    ]  # fmt: skip
    ingest = """mutation($ns: String!, $turns: [TurnInput!]!) {
      ingest(namespace: $ns, turns: $turns, flush: true) { stored } }"""
    assert gql(client, ingest, ns=namespace, turns=turns)["ingest"]["stored"] == 2
    log = gql(
        client,
        "query($ns: String!) { episodes(namespace: $ns) { uid text memoryIds } }",
        ns=namespace,
    )["episodes"]
    newest = log[1]["memoryIds"][0]
    query = """query($ns: String!, $id: ID!) { provenance(namespace: $ns, memoryId: $id) {
      via episode { uid sessionId turnIndex speaker text } } }"""
    [step] = gql(client, query, ns=namespace, id=newest)["provenance"]
    assert step["via"] == [newest]
    assert step["episode"] == {
        "uid": log[1]["uid"], "sessionId": "s1", "turnIndex": 1, "speaker": "Sam",
        "text": "I now work at Microsoft.",
    }  # fmt: skip
    found = hood(client, namespace, newest, sup=True)
    assert keys(found, "episode") == {log[1]["uid"]}
    assert ("DERIVED_FROM", f"memory:{newest}", f"episode:{log[1]['uid']}") in edge_set(found)
    [episode] = [n for n in found["nodes"] if n["kind"] == "EPISODE"]
    assert episode["label"] == "Sam #1" and episode["episode"]["text"] == turns[1]["text"]
    [older] = [n["memory"] for n in found["nodes"] if n["kind"] == "MEMORY" and n["depth"] == 1]
    assert (older["content"], older["status"]) == ("Sam works at Google.", "SUPERSEDED")


def test_clusters_of_a_namespace_and_their_members(
    client: TestClient, runtime: Runtime, namespace: str
) -> None:
    rng = np.random.default_rng(5)
    centres = rng.standard_normal((2, 384))
    for k, topic in enumerate(("hiking trail", "espresso roast")):
        for i in range(8):
            vector = centres[k] + 0.05 * rng.standard_normal(384)
            vector /= np.linalg.norm(vector)
            add_memory(runtime.store, namespace, content=f"{topic} {i}", embedding=vector.tolist())
    config = JobsConfig(cluster=replace(JobsConfig().cluster, min_cluster_size=5))
    ran = registry.run_job(runtime.store, "cluster", config, RunOptions(namespace=namespace))
    assert ran.status == "succeeded" and ran.counts["clusters"] == 2
    query = """query($ns: String!, $first: Int! = 100) { clusters(namespace: $ns, first: $first) {
      id label size updatedAt members } }"""
    found = gql(client, query, ns=namespace)["clusters"]
    assert [c["size"] for c in found] == [8, 8]
    assert all(len(c["members"]) == 8 and c["updatedAt"] for c in found)
    assert gql(client, query, ns=namespace, first=1)["clusters"] == found[:1]
    assert gql(client, query, ns=f"test-{uuid.uuid4().hex[:12]}")["clusters"] == []
    [error] = post(client, query, ns=namespace, first=explore.MAX_CLUSTERS + 1)["errors"]
    assert error["extensions"] == {
        "code": "BAD_INPUT", "field": "first", "limit": explore.MAX_CLUSTERS,
    }  # fmt: skip

    cluster = found[0]
    start = cluster["members"][0]
    one = hood(client, namespace, start)
    assert keys(one, "cluster") == {cluster["id"]}
    [node] = [n for n in one["nodes"] if n["kind"] == "CLUSTER"]
    assert node["clusterSize"] == 8 and node["label"] == cluster["label"]
    two = hood(client, namespace, start, depth=2)
    assert keys(two, "memory") == set(cluster["members"])
    in_cluster = {e["source"] for e in two["edges"] if e["type"] == "IN_CLUSTER"}
    assert in_cluster == {f"memory:{m}" for m in cluster["members"]}


needs_npm = pytest.mark.skipif(
    bool(missing(WEB_DIR, EXPLORER_FILES)),
    reason=f"cytoscape is not in {WEB_DIR}/node_modules: run `make install` (npm ci)",
)


@needs_npm
def test_the_explorer_page_loads_only_files_of_this_server(client: TestClient) -> None:
    page = client.get("/explore", headers=HTML)
    assert page.status_code == 200
    assert page.headers["content-security-policy"].startswith("default-src 'self';")
    urls = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert "/static/vendor/cytoscape/dist/cytoscape.min.js" in urls
    assert {"/static/pages/explore.js", "/static/pages/explore.css"} <= set(urls)
    assert not [u for u in urls if "//" in u], "no URL of another host (a CDN)"
    for url in (u for u in urls if u.startswith("/")):
        served = client.get(url)
        assert served.status_code == 200, url
        assert len(served.content) > 200, url
    assert "cytoscape" in client.get("/static/vendor/cytoscape/dist/cytoscape.min.js").text


def test_the_explorer_can_be_turned_off_or_says_what_is_missing(
    runtime: Runtime, tmp_path: Path
) -> None:
    assert Settings.from_env({"HIPPOGRAPH_EXPLORER": "0"}).server.explorer is False
    with TestClient(create_app(runtime.settings.with_(explorer=False), runtime=runtime)) as c:
        assert c.get("/explore", headers=HTML).status_code == 404
        assert c.post("/graphql", json={"query": "{ health { backend } }"}).status_code == 200
    with TestClient(create_app(runtime.settings.with_(web_dir=tmp_path), runtime=runtime)) as c:
        page = c.get("/explore", headers=HTML)
        assert page.status_code == 503
        assert "The graph explorer's files are not installed" in page.text
        assert "<li><code>cytoscape/dist/cytoscape.min.js</code></li>" in page.text
