"""Contract: every statement plans with representative parameters and draws no WARNING from
the server (a deprecation, a missing parameter); what the driver logs of notifications is one
line per statement and kind, once."""

from __future__ import annotations

import logging
import re

import neo4j
import pytest

from hippograph.graph.errors import QueryNotFound
from hippograph.graph.recall import warmup
from hippograph.graph.runtime import Runtime
from hippograph.graph.store import notices, queries, samples
from hippograph.graph.store.store import statement
from tests.graph.store.test_queries import _GDS_CALL, _has_gds

_CODE = re.compile(r"//[^\n]*")
# A CALL subquery without a variable scope clause (`CALL () {`, `CALL (row) {`): deprecated
# since Neo4j 5.23, gone in Cypher 25.
_UNSCOPED_CALL = re.compile(r"\bCALL\s*\{")


def _statement_files() -> list[queries.Query]:
    found = []
    for name in queries.all_names():
        for backend in queries.BACKENDS:
            try:
                query = queries.load(name, backend)
            except QueryNotFound:  # a step of one backend only (Dialect.own_steps)
                continue
            if query.language == "cypher" and query not in found:
                found.append(query)
    return found


def test_every_parameter_of_every_statement_has_a_representative_value() -> None:
    used: set[str] = set()
    for query in _statement_files():
        params = samples.parameters(query, dimensions=8)  # KeyError names a missing one
        assert set(params) == set(samples.names(query))
        used |= set(params)
    assert used == set(samples.SAMPLES), "values for parameters no statement uses"


def test_vectors_are_sampled_at_the_model_dimensions() -> None:
    query = queries.load("recall/vector_feedback", "neo4j")
    params = samples.parameters(query, dimensions=384)
    assert params["embedding"] == [0.1] * 384
    assert params["fulltext"] and params["namespace"] == samples.SAMPLES["namespace"]


def test_every_call_subquery_has_a_variable_scope_clause() -> None:
    unscoped = [
        str(q.path.relative_to(queries.ROOT))
        for q in _statement_files()
        if _UNSCOPED_CALL.search(_CODE.sub("", q.text))
    ]
    assert unscoped == []


def test_a_statement_text_is_named_by_its_file() -> None:
    text = queries.load("recall/vector_feedback", "neo4j").text
    assert notices.statement_name(text) == "recall/vector_feedback"
    assert notices.statement_name("EXPLAIN " + text) == "recall/vector_feedback"
    assert notices.statement_name("RETURN 1") is None


def _nodes(rt: Runtime) -> int:
    store = rt.store
    records = store.driver.execute_query(
        "MATCH (n) RETURN count(n) AS c", database_=store.database
    ).records
    return int(records[0]["c"])


def test_every_statement_plans_with_real_parameters_and_no_warning(any_runtime: Runtime) -> None:
    """``EXPLAIN`` with a value of the service's type for every parameter: planning is where a
    server finds deprecated syntax, missing parameters and unknown procedures. Planning writes
    nothing. GDS statements are left out on a server without GDS (see test_queries)."""
    store = any_runtime.store
    before = _nodes(any_runtime)
    warnings: list[str] = []
    planned = 0
    for name in queries.all_names():
        query = queries.load(name, store.dialect.name)
        if name.startswith("schema/") or query.language != "cypher":
            continue
        gds = store.dialect.may_have_gds and _GDS_CALL.search(_CODE.sub("", query.text))
        if gds and not _has_gds(store):
            continue
        params = samples.parameters(query, dimensions=any_runtime.embedder.dimensions)
        text, values = statement(store.dialect, name, params)
        result = store.driver.execute_query("EXPLAIN " + text, values, database_=store.database)
        planned += 1
        for status in result.summary.gql_status_objects:
            if status.is_notification and status.severity == neo4j.NotificationSeverity.WARNING:
                warnings.append(f"{name}: {status.gql_status} {status.status_description}")
    assert planned > 200
    assert warnings == []
    assert _nodes(any_runtime) == before


def test_the_warm_up_draws_no_notification(
    any_runtime: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    rt = any_runtime
    with caplog.at_level(logging.DEBUG, logger=notices.LOGGER):
        warmup.warm(rt.store, rt.embedder, config=rt.cascade, services=rt.services)
    assert [r.getMessage() for r in caplog.records if r.name == notices.LOGGER] == []


@pytest.mark.neo4j
def test_a_notification_is_logged_once_in_one_line(
    neo4j_runtime: Runtime, caplog: pytest.LogCaptureFixture
) -> None:
    """A deprecated form (an unscoped CALL subquery, Neo4j 5.23+) sent twice: one record."""
    store = neo4j_runtime.store
    deprecated = "CALL {\n  RETURN 1 AS x\n}\nRETURN x"
    with caplog.at_level(logging.INFO, logger=notices.LOGGER):
        for _ in range(2):
            store.driver.execute_query(deprecated, database_=store.database)
    lines = [r.getMessage() for r in caplog.records if r.name == notices.LOGGER]
    assert len(lines) == 1
    assert "\n" not in lines[0] and "CALL { RETURN 1 AS x } RETURN x" in lines[0]
