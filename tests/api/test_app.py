"""The real Starlette app through TestClient (lifespan included), against the embedded engine."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from starlette.testclient import TestClient

from hippograph.api.errors import MASKED_MESSAGE
from hippograph.graph import errors
from hippograph.graph.runtime import Runtime


def gql(client: TestClient, query: str, **variables: Any) -> dict[str, Any]:
    response = client.post("/graphql", json={"query": query, "variables": variables})
    assert response.status_code == 200, response.text
    return dict(response.json())


REMEMBER = """
mutation($ns: String!, $m: MemoryInput!) {
  remember(namespace: $ns, memory: $m) { created memory { id content strength tags memoryType } }
}"""
SEARCH = """
query($ns: String!, $q: String!, $k: Int!) {
  search(namespace: $ns, query: $q, k: $k) { score memory { id content } }
}"""


def test_healthz_reports_backend_and_embedder(client: TestClient) -> None:
    body = client.get("/healthz").json()
    assert body["status"] == "ok"
    assert body["backend"] == "arcadedb"
    assert body["embedder_loaded"] is True
    assert body["embedding_backend"] == "onnx"
    # the background probe's last ping, not one made for this request
    assert body["graph"] == "up" and body["graph_ping_ms"] >= 0
    assert 0 <= body["graph_checked_ms_ago"] < 10_000


def test_graphiql_is_served(client: TestClient) -> None:
    page = client.get("/graphql", headers={"Accept": "text/html"})
    assert page.status_code == 200
    assert "graphiql" in page.text.lower()


def test_remember_then_search_round_trips(client: TestClient, namespace: str) -> None:
    out = gql(
        client,
        REMEMBER,
        ns=namespace,
        m={"content": "Lena's favourite tea is jasmine", "tags": ["Tea"]},
    )
    created = out["data"]["remember"]
    assert created["created"] is True and "tea" in created["memory"]["tags"]
    again = gql(client, REMEMBER, ns=namespace, m={"content": "lena's favourite tea is jasmine"})
    assert again["data"]["remember"]["created"] is False
    assert again["data"]["remember"]["memory"]["strength"] == 2
    found = gql(client, SEARCH, ns=namespace, q="What tea does Lena like?", k=3)["data"]["search"]
    assert found[0]["memory"]["id"] == created["memory"]["id"]
    assert found[0]["score"] > 0.5


def test_bad_input_returns_typed_error_and_writes_nothing(
    client: TestClient, namespace: str
) -> None:
    out = gql(client, REMEMBER, ns=namespace, m={"content": "ok", "confidence": 1.5})
    [error] = out["errors"]
    assert error["extensions"] == {
        "code": "BAD_INPUT",
        "field": "memory.confidence",
        "limit": "0..1",
    }
    assert "0..1" in error["message"]
    batch = gql(
        client,
        "mutation($ns: String!, $ms: [MemoryInput!]!) "
        "{ rememberBatch(namespace: $ns, memories: $ms) { created } }",
        ns=namespace,
        ms=[{"content": "fine"}, {"content": "  "}],
    )
    assert batch["errors"][0]["extensions"]["field"] == "memories[1].content"
    listing = gql(
        client,
        "query($ns: String!) { memories(namespace: $ns, filter: {status: null}) { items { id } } }",
        ns=namespace,
    )
    assert listing["data"]["memories"]["items"] == []


def test_unknown_enum_value_is_rejected_by_the_schema(client: TestClient, namespace: str) -> None:
    out = gql(client, REMEMBER, ns=namespace, m={"content": "ok", "memoryType": "RUMOUR"})
    assert "RUMOUR" in out["errors"][0]["message"]


def test_not_found_names_the_field(client: TestClient, namespace: str) -> None:
    missing = str(uuid.uuid4())
    out = gql(
        client,
        "query($ns: String!, $id: ID!) { memory(namespace: $ns, id: $id) { id } }",
        ns=namespace,
        id=missing,
    )
    assert out["errors"][0]["extensions"] == {
        "code": "NOT_FOUND",
        "kind": "memory",
        "id": missing,
        "field": "id",
    }


def test_unexpected_errors_are_masked(
    client: TestClient, runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("internal detail that must not leak")

    monkeypatch.setattr("hippograph.graph.memories.list_tags", explode)
    out = gql(client, "query($ns: String!) { tags(namespace: $ns) { name } }", ns=namespace)
    assert out["errors"][0]["message"] == MASKED_MESSAGE
    assert out["errors"][0]["extensions"] == {"code": "INTERNAL"}


def test_every_error_class_has_a_distinct_code() -> None:
    classes = [
        obj
        for obj in vars(errors).values()
        if isinstance(obj, type)
        and issubclass(obj, errors.HippographError)
        and obj is not errors.HippographError
    ]
    assert len(classes) >= 10
    codes = [c.code for c in classes]
    assert "INTERNAL" not in codes
    assert len(codes) == len(set(codes))


RECALL = """
query($ns: String!, $c: String!) {
  recall(namespace: $ns, context: $c, k: 3, explain: true) {
    gap bestRelevance totalMs
    items { score flagged memory { content } explanation { seedKinds relevance path { type via } } }
  }
}"""


def test_recall_over_graphql(client: TestClient, namespace: str) -> None:
    gql(client, REMEMBER, ns=namespace, m={"content": "Omar is allergic to peanuts"})
    gql(
        client,
        REMEMBER,
        ns=namespace,
        m={
            "content": "Never suggest peanut recipes",
            "memoryType": "NEGATIVE",
            "triggerPatterns": ["recipe"],
        },
    )
    out = gql(client, RECALL, ns=namespace, c="Suggest a dessert recipe for Omar")["data"]["recall"]
    assert out["gap"] is False
    assert out["items"][0]["flagged"] is True
    assert out["items"][0]["memory"]["content"] == "Never suggest peanut recipes"
    contents = [i["memory"]["content"] for i in out["items"]]
    assert "Omar is allergic to peanuts" in contents
    assert all(i["explanation"]["relevance"] >= 0 for i in out["items"])
