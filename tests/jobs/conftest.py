"""Helpers for job tests: memories and edges written straight into a namespace."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from hippograph.graph.model import scope_key
from hippograph.graph.runtime import Runtime
from hippograph.graph.store.store import Store
from hippograph.graph.text import fulltext


def add_memory(store: Store, namespace: str, **props: Any) -> str:
    """Create one memory with sensible defaults; returns its id."""
    memory_id = props.pop("id", None) or str(uuid.uuid4())
    content = props.pop("content", f"memory {memory_id[:8]}")
    row = {
        "id": memory_id,
        "namespace": namespace,
        "content": content,
        "ft_terms": fulltext.indexed(namespace, content),
        "content_hash": memory_id,
        "memory_type": "fact",
        "scope": "global",
        "provenance": "user_stated",
        "status": "active",
        "created_at": "2024-01-01T00:00:00.000000Z",
        "updated_at": "2024-01-01T00:00:00.000000Z",
        "access_count": 0,
        "strength": 1,
        "confidence": 0.9,
        "initial_confidence": 0.9,
        "trust_score": 1.0,
        **props,
    }
    # As the write path stores it: the key every scoped read tests (graph.model.scope_key).
    row.setdefault("scope_key", scope_key(row["scope"], row.get("project"), row.get("session_id")))
    store.write("memory/create", rows=[row])
    return memory_id


def add_edge(store: Store, source: str, target: str, **props: Any) -> None:
    edge = {
        "weight": 1.0,
        "confidence": 1.0,
        "created_at": "2024-01-01T00:00:00.000000Z",
        "last_reinforced_at": "2024-01-01T00:00:00.000000Z",
        "kind": "explicit",
        **props,
    }
    store.write(
        "import/edge_relates_to", rows=[{"from_id": source, "to_key": target, "props": edge}]
    )


def edges(store: Store, namespace: str) -> dict[tuple[str, str], dict[str, Any]]:
    rows = store.driver.execute_query(
        "MATCH (a:Memory)-[r:RELATES_TO]->(b:Memory) WHERE a.namespace = $ns "
        "RETURN a.id AS a, b.id AS b, properties(r) AS props",
        ns=namespace,
        database_=store.database,
    ).records
    return {(r["a"], r["b"]): dict(r["props"]) for r in rows}


def memory_props(store: Store, namespace: str) -> dict[str, dict[str, Any]]:
    rows = store.driver.execute_query(
        "MATCH (m:Memory) WHERE m.namespace = $ns RETURN m.id AS id, properties(m) AS props",
        ns=namespace,
        database_=store.database,
    ).records
    return {r["id"]: dict(r["props"]) for r in rows}


@pytest.fixture
def store(runtime: Runtime) -> Store:
    return runtime.store


@pytest.fixture(autouse=True)
def _job_records(request: pytest.FixtureRequest) -> Iterator[None]:
    """Delete the JobRun and Gap nodes a test's namespace left behind."""
    if "namespace" not in request.fixturenames:
        yield
        return
    ns = request.getfixturevalue("namespace")
    rt: Runtime = request.getfixturevalue("runtime")
    yield
    for query in (
        "MATCH (r:JobRun) WHERE r.scope = $ns DELETE r",
        "MATCH (g:Gap) WHERE g.namespace = $ns DELETE g",
    ):
        rt.store.driver.execute_query(query, ns=ns, database_=rt.store.database)
