"""Contract: every Cypher file loads and compiles on each backend; overrides come in pairs."""

from __future__ import annotations

import uuid

import pytest

from hippograph.graph import queries
from hippograph.graph.dialect import ARCADEDB, DIALECTS, NEO4J
from hippograph.graph.errors import QueryNotFound
from hippograph.graph.runtime import Runtime
from hippograph.graph.store import row_of


def test_unknown_query_is_a_typed_error() -> None:
    with pytest.raises(QueryNotFound, match="memory/nope"):
        queries.load("memory/nope", "arcadedb")
    with pytest.raises(QueryNotFound):
        queries.load("../etc/passwd", "neo4j")


def test_backend_overrides_come_in_pairs() -> None:
    for dialect in DIALECTS.values():
        lonely = set(queries.backend_only(dialect.name)) - set(dialect.own_steps)
        assert not lonely, f"{dialect.name} has files with no twin for the other backend: {lonely}"


def test_every_schema_step_resolves_on_both_backends() -> None:
    for dialect in (NEO4J, ARCADEDB):
        for name in dialect.schema:
            query = queries.load(name, dialect.name)
            assert query.text, name
            assert "{{" not in queries.render(query, dimensions=384)


def test_render_only_accepts_integers() -> None:
    query = queries.load("schema/memory_embedding_index", "neo4j")
    assert "`vector.dimensions`: 384" in queries.render(query, dimensions=384)
    with pytest.raises(QueryNotFound):
        queries.render(query, dimensions="384; DROP")  # type: ignore[arg-type]


def _statements() -> list[str]:
    return [n for n in queries.all_names() if not n.startswith("schema/")]


@pytest.mark.parametrize("name", _statements())
def test_statement_compiles(any_runtime: Runtime, name: str) -> None:
    """EXPLAIN each statement: it parses and plans on the backend without touching data."""
    store = any_runtime.store
    query = queries.load(name, store.dialect.name)
    assert query.language == "cypher"
    result = store.driver.execute_query(
        "EXPLAIN " + query.text, store.dialect.params(), database_=store.database
    )
    assert result.summary is not None


def test_schema_is_idempotent(any_runtime: Runtime) -> None:
    any_runtime.store.install_schema(dimensions=any_runtime.embedder.dimensions)
    any_runtime.store.install_schema(dimensions=any_runtime.embedder.dimensions)
    rows = any_runtime.store.driver.execute_query(
        "SHOW INDEXES", database_=any_runtime.store.database
    ).records
    names = {r["name"] for r in rows}
    assert any_runtime.store.dialect.vector_index in names
    assert any_runtime.store.dialect.fulltext_index in names


def test_rows_read_as_record_data_has_them(runtime: Runtime) -> None:
    """Store rows skip Record.data()'s per-element walk of number lists (embeddings) but must
    equal what it returns for every value kind: nodes, relationships, paths, maps, lists."""
    store = runtime.store
    tag = f"rows-{uuid.uuid4().hex[:8]}"
    try:
        records = store.driver.execute_query(
            "CREATE (a:Tag {uid: $tag, name: 'a', count: 1})-[r:RELATED {w: 0.5}]->"
            "(b:Tag {uid: $tag + 'b', name: 'b', count: 2}) "
            "WITH a, r, b MATCH p = (a)-[:RELATED]->(b) "
            "RETURN a, r, p, [a, b] AS nodes, {node: a, n: 1} AS map, [0.5, 1.5, 2.5] AS floats, "
            "[1, 'x', null, true] AS mixed, [[1, 2], [3]] AS nested, 'text' AS s, null AS nothing",
            tag=tag,
            database_=store.database,
        ).records
        assert records
        for record in records:
            assert row_of(record) == record.data()
    finally:
        store.driver.execute_query(
            "MATCH (t:Tag) WHERE t.uid STARTS WITH $tag DETACH DELETE t",
            tag=tag,
            database_=store.database,
        )
