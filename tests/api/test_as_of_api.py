"""The validity interval of a fact and asOf on recall, search and memories, through the real
app (TestClient, lifespan) on the embedded engine, with the service clock pinned."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from starlette.testclient import TestClient

from hippograph.graph import clock
from hippograph.graph.model import to_iso

T0 = datetime(2030, 1, 1, tzinfo=UTC)  # the service learns the old fact
T1 = T0 + timedelta(days=1)  # ... the new one
T2 = T0 + timedelta(days=2)  # ... that the new one supersedes the old

FIELDS = "id content status validFrom validUntil recordedAt"
REMEMBER = f"""
mutation($ns: String!, $m: MemoryInput!) {{
  remember(namespace: $ns, memory: $m) {{ action memory {{ {FIELDS} }} }}
}}"""
SUPERSEDE = f"""
mutation($ns: String!, $old: ID!, $new: ID!) {{
  supersede(namespace: $ns, oldId: $old, newId: $new, reason: "moved jobs") {{ {FIELDS} }}
}}"""
MEMORIES = f"""
query($ns: String!, $asOf: String) {{
  memories(namespace: $ns, asOf: $asOf) {{ items {{ {FIELDS} }} }}
}}"""
SEARCH = """
query($ns: String!, $q: String!, $asOf: String) {
  search(namespace: $ns, query: $q, k: 5, asOf: $asOf) { memory { id } }
}"""
RECALL = """
query($ns: String!, $q: String!, $asOf: String) {
  recall(namespace: $ns, context: $q, k: 5, asOf: $asOf) { items { memory { id status } } }
}"""
QUESTION = "Where does Alice work?"


def gql(client: TestClient, query: str, **variables: Any) -> dict[str, Any]:
    response = client.post("/graphql", json={"query": query, "variables": variables})
    assert response.status_code == 200, response.text
    return dict(response.json())


def data(client: TestClient, query: str, **variables: Any) -> dict[str, Any]:
    body = gql(client, query, **variables)
    assert "errors" not in body, body
    return dict(body["data"])


def at(moment: datetime) -> str:
    return to_iso(moment)


@pytest.fixture
def timeline(client: TestClient, namespace: str) -> tuple[str, str]:
    """Old fact learned at T0, its successor at T1, superseded at T2; the clock left at T2."""
    clock.set_now(T0)
    old = data(
        client,
        REMEMBER,
        ns=namespace,
        m={"content": "Alice works at Google", "occurredAt": "2023-01-10T09:00:00Z"},
    )
    clock.set_now(T1)
    new = data(client, REMEMBER, ns=namespace,
               m={"content": "Alice joined Microsoft as an engineer",
                  "occurredAt": "2023-06-01T09:00:00Z"})  # fmt: skip
    assert new["remember"]["action"] == "ADD"
    clock.set_now(T2)
    return old["remember"]["memory"]["id"], new["remember"]["memory"]["id"]


def test_supersede_closes_the_old_facts_validity(
    client: TestClient, namespace: str, timeline: tuple[str, str]
) -> None:
    old, new = timeline
    before = data(client, MEMORIES, ns=namespace)["memories"]["items"]
    assert {m["id"]: m["validUntil"] for m in before} == {old: None, new: None}
    closed = data(client, SUPERSEDE, ns=namespace, old=old, new=new)["supersede"]
    assert closed["status"] == "SUPERSEDED"
    assert closed["validFrom"] == "2023-01-10T09:00:00Z"  # event time, not when learned
    assert closed["validUntil"] == "2023-06-01T09:00:00Z"  # when its successor began
    assert closed["recordedAt"] == at(T0)  # the service clock


def ids(rows: list[dict[str, Any]]) -> set[str]:
    return {r["memory"]["id"] if "memory" in r else r["id"] for r in rows}


def answers(client: TestClient, namespace: str, as_of: str | None) -> dict[str, set[str]]:
    return {
        "memories": ids(data(client, MEMORIES, ns=namespace, asOf=as_of)["memories"]["items"]),
        "search": ids(data(client, SEARCH, ns=namespace, q=QUESTION, asOf=as_of)["search"]),
        "recall": ids(
            data(client, RECALL, ns=namespace, q=QUESTION, asOf=as_of)["recall"]["items"]
        ),
    }


def test_as_of_answers_as_the_store_stood(
    client: TestClient, namespace: str, timeline: tuple[str, str]
) -> None:
    old, new = timeline
    data(client, SUPERSEDE, ns=namespace, old=old, new=new)
    clock.set_now(T2 + timedelta(days=1))

    def same(found: set[str]) -> dict[str, set[str]]:
        return {"memories": found, "search": found, "recall": found}

    assert answers(client, namespace, None) == same({new})  # now: the successor only
    assert answers(client, namespace, at(T0 - timedelta(hours=1))) == same(set())
    assert answers(client, namespace, at(T0 + timedelta(hours=12))) == same({old})
    assert answers(client, namespace, at(T1 + timedelta(hours=12))) == same({old, new})
    assert answers(client, namespace, at(T2 + timedelta(hours=12))) == same({new})
    # A superseded memory current then comes back as itself, with its status of today.
    then = data(client, RECALL, ns=namespace, q=QUESTION, asOf=at(T0 + timedelta(hours=12)))
    assert then["recall"]["items"] == [{"memory": {"id": old, "status": "SUPERSEDED"}}]


def test_a_soft_forgotten_memory_is_current_before_it_was_forgotten(
    client: TestClient, namespace: str, timeline: tuple[str, str]
) -> None:
    old, new = timeline
    forget = "mutation($ns: String!, $id: ID!) { forget(namespace: $ns, id: $id) }"
    data(client, forget, ns=namespace, id=new)
    assert answers(client, namespace, None)["memories"] == {old}
    assert answers(client, namespace, at(T1 + timedelta(hours=12)))["search"] == {old, new}


def test_as_of_that_is_not_a_time_is_a_typed_error(client: TestClient, namespace: str) -> None:
    for query in (MEMORIES, SEARCH, RECALL):
        body = gql(client, query, ns=namespace, q=QUESTION, asOf="last tuesday")
        [error] = body["errors"]
        assert error["extensions"]["code"] == "BAD_INPUT"
        assert "asOf" in error["message"]


VALID_SEARCH = """
query($ns: String!, $q: String!, $validAt: String) {
  search(namespace: $ns, query: $q, k: 5, validAt: $validAt) { memory { id } }
}"""
VALID_RECALL = """
query($ns: String!, $q: String!, $validAt: String) {
  recall(namespace: $ns, context: $q, k: 5, validAt: $validAt, includeGap: true) {
    items { memory { id status } }
  }
}"""


def true_then(client: TestClient, namespace: str, valid_at: str) -> dict[str, set[str]]:
    found = data(client, VALID_SEARCH, ns=namespace, q=QUESTION, validAt=valid_at)
    recalled = data(client, VALID_RECALL, ns=namespace, q=QUESTION, validAt=valid_at)
    return {"search": ids(found["search"]), "recall": ids(recalled["recall"]["items"])}


def test_valid_at_answers_what_was_true_then_as_known_now(
    client: TestClient, namespace: str, timeline: tuple[str, str]
) -> None:
    """validAt is event time: the story's own dates, whenever the service was told them
    (here learned in 2030 of facts from 2023)."""
    old, new = timeline
    data(client, SUPERSEDE, ns=namespace, old=old, new=new)
    assert true_then(client, namespace, "2022-12-01T00:00:00Z") == {
        "search": set(),
        "recall": set(),
    }
    assert true_then(client, namespace, "2023-03-01T00:00:00Z") == {
        "search": {old},
        "recall": {old},
    }
    assert true_then(client, namespace, "2024-01-01T00:00:00Z") == {
        "search": {new},
        "recall": {new},
    }
    body = gql(client, VALID_SEARCH, ns=namespace, q=QUESTION, validAt="last tuesday")
    [error] = body["errors"]
    assert error["extensions"]["code"] == "BAD_INPUT" and "validAt" in error["message"]
