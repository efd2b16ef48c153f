"""Contract: every Cypher file loads and compiles on each backend; overrides come in pairs."""

from __future__ import annotations

import logging
import re
import uuid

import neo4j
import numpy as np
import pytest

from hippograph.graph.errors import QueryNotFound
from hippograph.graph.runtime import Runtime
from hippograph.graph.store import queries
from hippograph.graph.store.dialect import ARCADEDB, DIALECTS, NEO4J
from hippograph.graph.store.store import Store, row_of, vector


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


_INDEX = re.compile(r"CREATE INDEX IF NOT EXISTS ON (\w+) \(([\w, ]+)\)")
_KEYED_NODE = re.compile(r"\((\w+):(\w+)\s*\{\s*(\w+):\s*\$\w+\s*\}\)")
_CLAUSE = re.compile(
    r"\b(MATCH|OPTIONAL|WITH|WHERE|RETURN|SET|MERGE|CREATE|UNWIND|CALL|DELETE|DETACH|REMOVE"
    r"|ORDER|UNION|FOREACH)\b"
)


def _embedded_indexes() -> dict[str, set[str]]:
    """Label -> the properties an embedded-engine index starts with."""
    found: dict[str, set[str]] = {}
    for path in (queries.ROOT / "arcadedb" / "schema").glob("*.sql"):
        for label, columns in _INDEX.findall(path.read_text()):
            found.setdefault(label, set()).add(columns.split(",")[0].strip())
    return found


def test_no_statement_lets_the_embedded_planner_pick_the_wrong_index() -> None:
    """ArcadeDB plans ``MATCH (m:Memory {id: $id}) WHERE m.namespace = $ns`` through the
    namespace index, not the unique id index: ~250 ms against ~1.5 ms a statement at 100k
    memories. A node looked up by a parameter must be checked after a WITH, never in the
    WHERE of its own MATCH, whenever the check reads another indexed property."""
    indexed = _embedded_indexes()
    assert "namespace" in indexed["Memory"]
    offenders = []
    for name in _statements():
        text = re.sub(r"//[^\n]*", "", queries.load(name, "arcadedb").text)
        for node in _KEYED_NODE.finditer(text):
            var, label, key = node.groups()
            clauses = list(_CLAUSE.finditer(text, node.end()))
            if not clauses or clauses[0].group(1) != "WHERE":
                continue
            end = clauses[1].start() if len(clauses) > 1 else len(text)
            where = text[clauses[0].end() : end]
            read = set(re.findall(rf"\b{var}\.(\w+)", where)) & indexed.get(label, set())
            if read - {key}:
                offenders.append(f"{name}: ({var}:{label} {{{key}: ...}}) WHERE {sorted(read)}")
    assert not offenders, offenders


def test_no_two_composite_indexes_of_a_type_start_with_the_same_property() -> None:
    """ArcadeDB's planner took a (namespace, standing) index for the negative rules'
    ``m.namespace = $ns AND m.memory_type = 'negative'`` and read the whole namespace through it
    (100k memories: ~250 ms a recall against ~1 ms; bench/latency.py). A second composite index
    led by a property another one already leads with must not come back: such a lookup goes
    through its own single-property index, read before the namespace check."""
    leading: dict[tuple[str, str], list[str]] = {}
    for path in sorted((queries.ROOT / "arcadedb" / "schema").glob("*.sql")):
        for label, columns in _INDEX.findall(path.read_text()):
            parts = [c.strip() for c in columns.split(",")]
            if len(parts) > 1:
                leading.setdefault((label, parts[0]), []).append(path.name)
    shared = {key: files for key, files in leading.items() if len(files) > 1}
    assert not shared, shared


def _statements() -> list[str]:
    return [n for n in queries.all_names() if not n.startswith("schema/")]


_GDS_CALL = re.compile(r"\bgds\.\w")
# Whether a server has Graph Data Science, by its location (asked once a session).
_HAS_GDS: dict[str, bool] = {}


def _has_gds(store: Store) -> bool:
    """True when the server offers GDS procedures or functions. Neo4j Community without the
    plugin has neither, and cannot even plan a statement that calls one."""
    if store.location not in _HAS_GDS:
        found = 0
        for listing in ("SHOW PROCEDURES", "SHOW FUNCTIONS"):
            records = store.driver.execute_query(
                listing + " YIELD name WHERE name STARTS WITH 'gds.' RETURN count(*) AS n",
                database_=store.database,
            ).records
            found += int(records[0]["n"])
        _HAS_GDS[store.location] = found > 0
    return _HAS_GDS[store.location]


@pytest.mark.parametrize("name", _statements())
def test_statement_compiles(any_runtime: Runtime, name: str) -> None:
    """EXPLAIN each statement: it parses and plans on the backend without touching data.
    A statement calling Graph Data Science is skipped on a Neo4j server without it (the
    pagerank job computes in-process there and never runs it)."""
    store = any_runtime.store
    query = queries.load(name, store.dialect.name)
    assert query.language == "cypher"
    code = re.sub(r"//[^\n]*", "", query.text)
    if store.dialect.may_have_gds and _GDS_CALL.search(code) and not _has_gds(store):
        pytest.skip(f"{name} calls Graph Data Science, which {store.location} does not have")
    result = store.driver.execute_query(
        "EXPLAIN " + query.text, store.dialect.params(), database_=store.database
    )
    assert result.summary is not None


def test_the_graph_sends_no_unrecognized_notifications(
    any_runtime: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    """The driver asks the server not to send UNRECOGNIZED notifications (the default of
    HIPPOGRAPH_GRAPH_NOTIFICATIONS_DISABLED): Neo4j sends one for every label or property no
    node has yet, and the driver logs each as a multi-line WARNING."""
    store = any_runtime.store
    with caplog.at_level(logging.INFO, logger="neo4j.notifications"):
        result = store.driver.execute_query(
            "MATCH (n:NoSuchLabelYet) WHERE n.no_such_property = 1 RETURN count(n) AS c",
            database_=store.database,
        )
    assert result.records[0]["c"] == 0
    kinds = {s.classification for s in result.summary.gql_status_objects}
    assert neo4j.NotificationClassification.UNRECOGNIZED not in kinds
    assert [r for r in caplog.records if r.name.startswith("neo4j.notifications")] == []


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


def test_a_vector_parameter_goes_over_bolt_intact_and_logs_short(runtime: Runtime) -> None:
    values = [i / 384 for i in range(384)]
    param = vector(np.asarray(values, dtype=np.float64))
    assert repr(param) == "<vector of 384 floats>"
    store = runtime.store
    rows = store.driver.execute_query(
        "UNWIND $rows AS row RETURN row.e AS e", rows=[{"e": param}], database_=store.database
    ).records
    assert rows[0]["e"] == values
