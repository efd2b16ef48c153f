"""GraphQL fuzzing of the real endpoint with hypothesis-graphql (#21 part 5).

Valid documents generated from the schema (any root fields, any arguments; every literal
namespace one of two valid ones) are sent to the real app over HTTP. Every answer must be HTTP
200 with either data or typed errors: no 500, no masked unexpected error (INTERNAL), and no
write hidden behind an error (a document whose every root field failed leaves the graph's
memories, log, tags and edges as they were).

Left out: ``consolidate``, ``rebuild`` and ``runJob``, which span every namespace or run for
minutes (the kill tests drive them). ``HIPPOGRAPH_FUZZ_EXAMPLES`` sets the number of documents
(120 in ``make test``). The counts are printed (``pytest -s``).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import graphql
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_graphql import from_schema, nodes
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.api.schema import schema
from hippograph.graph.runtime import Runtime
from tests.conftest import wipe

pytestmark = [pytest.mark.slow, pytest.mark.reliability]
EXAMPLES = int(os.environ.get("HIPPOGRAPH_FUZZ_EXAMPLES", "120"))
LEFT_OUT = {"consolidate", "rebuild", "runJob"}
FINGERPRINT = """
CALL { MATCH (m:Memory) RETURN count(m) AS memories, sum(m.strength) AS strength,
       sum(m.confidence) AS confidence }
CALL { MATCH (e:Episode) RETURN count(e) AS episodes }
CALL { MATCH (r:RememberEvent) RETURN count(r) AS events }
CALL { MATCH (t:Tombstone) RETURN count(t) AS tombstones }
CALL { MATCH (t:Tag) RETURN count(t) AS tags, sum(t.count) AS tagged }
CALL { MATCH ()-[r:HAS_TAG|SUPERSEDES|CONTRADICTS|DERIVED_FROM]->() RETURN count(r) AS edges }
RETURN memories, strength, confidence, episodes, events, tombstones, tags, tagged, edges
"""


def _fields() -> list[str]:
    g = schema._schema
    roots = [*g.query_type.fields, *(g.mutation_type.fields if g.mutation_type else {})]
    return [f for f in roots if f not in LEFT_OUT]


DOCUMENTS = from_schema(
    str(schema),
    fields=_fields(),
    custom_scalars={"JSON": st.integers().map(nodes.Int)},
    allow_x00=False,
)


FUZZ_NAMESPACES = ("fuzz-a", "fuzz-b")


def _valid_namespaces(document: str) -> str:
    """``document`` with every literal ``namespace`` argument one of ``FUZZ_NAMESPACES``:
    random strings are nearly all invalid namespaces, and the fuzzing would test little else."""

    class Visitor(graphql.Visitor):
        def enter_argument(self, node: graphql.ArgumentNode, *_: Any) -> Any:
            if node.name.value == "namespace" and isinstance(node.value, graphql.StringValueNode):
                value = FUZZ_NAMESPACES[len(node.value.value) % 2]
                return graphql.ArgumentNode(
                    name=node.name, value=graphql.StringValueNode(value=value)
                )
            return None

    return graphql.print_ast(graphql.visit(graphql.parse(document), Visitor()))


@pytest.fixture
def client(runtime: Runtime) -> Iterator[TestClient]:
    with TestClient(create_app(runtime=runtime)) as c:
        yield c


def test_fuzzed_documents_get_data_or_typed_errors(client: TestClient, runtime: Runtime) -> None:
    store = runtime.store
    tally: Counter[str] = Counter()
    problems: list[str] = []

    def fingerprint() -> dict[str, Any]:
        records, _, _ = store.driver.execute_query(FINGERPRINT, database_=store.database)
        return dict(records[0])

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(document=DOCUMENTS)
    def probe(document: str) -> None:
        document = _valid_namespaces(document)
        before = fingerprint()
        response = client.post("/graphql", json={"query": document})
        tally["requests"] += 1
        if response.status_code != 200:
            tally[f"http {response.status_code}"] += 1
            problems.append(f"HTTP {response.status_code} for {document[:300]}")
            return
        body = response.json()
        errors = body.get("errors") or []
        data = body.get("data")
        for e in errors:
            code = (e.get("extensions") or {}).get("code", "NO_CODE")
            tally[f"error {code}"] += 1
            if code in {"INTERNAL", "NO_CODE"}:
                problems.append(f"{code}: {e.get('message')} for {document[:300]}")
        if not errors:
            tally["ok"] += 1
            return
        if data is None or all(v is None for v in data.values()):
            tally["all failed"] += 1
            if document.lstrip().startswith("mutation") and fingerprint() != before:
                tally["hidden writes"] += 1
                problems.append(f"wrote behind errors {errors[:2]} for {document[:300]}")
        else:
            tally["partly failed"] += 1

    try:
        probe()
    finally:
        for ns in FUZZ_NAMESPACES:
            wipe(store, ns)
    print(f"\nfuzzing: {dict(sorted(tally.items()))}")
    assert tally["requests"] == EXAMPLES
    assert problems == []
