"""The whole service through the real HTTP app: the decision path answers remember, a recall's
maintenance runs after it (counts, gaps), reported use reinforces, and the maintenance jobs
run over GraphQL."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from hippograph.graph.runtime import Runtime
from tests.jobs.conftest import edges, memory_props


def gql(client: TestClient, query: str, **variables: Any) -> dict[str, Any]:
    response = client.post("/graphql", json={"query": query, "variables": variables})
    assert response.status_code == 200, response.text
    body = response.json()
    assert "errors" not in body, body["errors"]
    return dict(body["data"])


REMEMBER = """
mutation($ns: String!, $m: MemoryInput!) {
  remember(namespace: $ns, memory: $m) { created action targetId reason memory { id strength } }
}"""
RECALL = """
query($ns: String!, $c: String!) {
  recall(namespace: $ns, context: $c, k: 5) { gap items { memory { id content } } }
}"""


def test_remember_reports_the_decision(client: TestClient, namespace: str) -> None:
    first = gql(client, REMEMBER, ns=namespace, m={"content": "Maya works at Google"})["remember"]
    assert (first["created"], first["action"], first["targetId"]) == (True, "ADD", None)
    again = gql(client, REMEMBER, ns=namespace, m={"content": "maya works at google."})
    assert again["remember"]["action"] == "NOOP"
    assert again["remember"]["targetId"] == first["memory"]["id"]
    assert again["remember"]["memory"]["strength"] == 2


USED = """
mutation($ns: String!, $ids: [ID!]!) {
  used(namespace: $ns, memoryIds: $ids) { memoriesTouched linksCreated linksReinforced }
}"""


def test_recall_reinforces_nothing_the_client_reports_use_and_gaps_are_logged(
    client: TestClient, runtime: Runtime, namespace: str
) -> None:
    facts = [
        "Omar's daughter Lina plays the cello",
        "Lina has a cello recital on Friday evening",
        "Omar bought Lina a new cello bow",
    ]
    ids = [
        gql(client, REMEMBER, ns=namespace, m={"content": f})["remember"]["memory"]["id"]
        for f in facts
    ]
    found = gql(client, RECALL, ns=namespace, c="When is Lina's cello recital?")["recall"]
    assert not found["gap"]
    returned = [i["memory"]["id"] for i in found["items"]]
    assert set(ids) == set(returned)
    runtime.settle()
    assert edges(runtime.store, namespace) == {}
    props = memory_props(runtime.store, namespace)
    assert all(props[i]["access_count"] == 0 and props[i]["returned_count"] == 1 for i in ids)

    top = returned[:2]
    used = gql(client, USED, ns=namespace, ids=top)["used"]
    assert used == {"memoriesTouched": 2, "linksCreated": 1, "linksReinforced": 0}
    assert {frozenset(pair) for pair in edges(runtime.store, namespace)} == {frozenset(top)}
    props = memory_props(runtime.store, namespace)
    assert all(props[i]["access_count"] == 1 and props[i]["last_accessed"] for i in top)
    response = client.post(
        "/graphql", json={"query": USED, "variables": {"ns": namespace, "ids": ["nope"]}}
    )
    [error] = response.json()["errors"]
    assert error["extensions"] == {"code": "BAD_INPUT", "field": "memoryIds"}

    missing = gql(
        client,
        RECALL,
        ns=namespace,
        c="What is the tax id of the Berlin office? api_key=sk-abcdefghijklmnopqrstuvwx1234",
    )["recall"]
    assert missing["gap"]
    runtime.settle()
    gaps = gql(
        client, "query($ns: String!) { gaps(namespace: $ns) { context count } }", ns=namespace
    )
    assert len(gaps["gaps"]) == 1 and gaps["gaps"][0]["count"] == 1
    assert "sk-abcdefghijklmnopqrstuvwx1234" not in gaps["gaps"][0]["context"]
    assert "tax id of the Berlin office" in gaps["gaps"][0]["context"]


def test_run_consolidate_job_over_graphql(
    client: TestClient, runtime: Runtime, namespace: str
) -> None:
    gql(client, REMEMBER, ns=namespace, m={"content": "The staging database is Postgres 15"})
    started = gql(
        client,
        "mutation($ns: String!) { runJob(name: CONSOLIDATE, namespace: $ns, force: true) "
        "{ id status scope } }",
        ns=namespace,
    )["runJob"]
    assert started["status"] == "RUNNING" and started["scope"] == namespace
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        runs = gql(client, "{ jobRuns(name: CONSOLIDATE, first: 5) { id status counts error } }")[
            "jobRuns"
        ]
        run = next(r for r in runs if r["id"] == started["id"])
        if run["status"] != "RUNNING":
            break
        time.sleep(0.2)
    assert run["status"] == "SUCCEEDED", run
    # One new fact is under the default volume gate: the job ran, consolidation was not due.
    assert run["counts"].get("skipped_gate") == 1, run["counts"]
