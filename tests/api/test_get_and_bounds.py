"""No side effect over GET, every list argument bounded, JSON depth limited before parsing, and
introspection under the depth limit and behind keys (#43), through the real app."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from graphql import (
    GraphQLEnumType,
    GraphQLInputObjectType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLType,
    get_introspection_query,
    get_named_type,
)
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.api.schema import schema
from hippograph.graph.runtime import Runtime
from tests.api.test_access import code, create_key
from tests.conftest import wipe

HUGE = 10**9
PAGING = ("first", "limit", "k", "depth", "budget")
MANY = 100_000
MISSING_ID = "00000000-0000-4000-8000-000000000000"


@pytest.fixture
def ns(runtime: Runtime) -> Iterator[str]:
    name = f"bounds-{uuid.uuid4().hex[:8]}"
    yield name
    wipe(runtime.store, name)


@pytest.fixture
def client(runtime: Runtime, tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(runtime.settings.with_(data_dir=tmp_path), runtime=runtime)) as c:
        yield c


def _nullable(kind: GraphQLType) -> GraphQLType:
    return kind.of_type if isinstance(kind, GraphQLNonNull) else kind


def _value(name: str, kind: GraphQLType, ns: str) -> Any:
    """A plausible value of a required argument."""
    named = get_named_type(kind)
    if isinstance(_nullable(kind), GraphQLList):
        return [_value(name, _nullable(kind).of_type, ns)]  # type: ignore[attr-defined]
    if name == "namespace":
        return ns
    if isinstance(named, GraphQLEnumType):
        return next(iter(named.values))
    if isinstance(named, GraphQLInputObjectType):
        return None  # not built: such fields are left to their own tests
    return {"Int": 1, "Float": 0.5, "Boolean": False, "ID": MISSING_ID}.get(named.name, "x")


def _cases() -> list[tuple[str, str, str, Any]]:
    """(operation type, field, argument, too large a value) for every Int paging argument and
    every list argument of scalars or enums, on every root field."""
    graphql = schema._schema
    cases = []
    for operation, root in (("query", graphql.query_type), ("mutation", graphql.mutation_type)):
        assert root is not None
        for field, definition in root.fields.items():
            for arg, spec in definition.args.items():
                named = get_named_type(spec.type)
                if isinstance(_nullable(spec.type), GraphQLList):
                    if isinstance(named, GraphQLInputObjectType):
                        continue
                    item = _value(arg, _nullable(spec.type).of_type, "ns")  # type: ignore[attr-defined]
                    cases.append((operation, field, arg, [item] * MANY))
                elif named.name == "Int" and arg in PAGING:
                    cases.append((operation, field, arg, HUGE))
    return cases


def post(
    client: TestClient, query: str, variables: dict[str, Any], token: str | None = None
) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.post(
        "/graphql", json={"query": query, "variables": variables}, headers=headers
    )
    assert response.status_code == 200, response.text[:300]
    return response.json()


def _document(operation: str, field: str, arg: str, ns: str) -> tuple[str, dict[str, Any]] | None:
    root = schema._schema.query_type if operation == "query" else schema._schema.mutation_type
    assert root is not None
    definition = root.fields[field]
    variables: dict[str, Any] = {}
    params, passed = [], []
    for name, spec in definition.args.items():
        if name != arg and not isinstance(spec.type, GraphQLNonNull):
            continue
        value = None if name == arg else _value(name, spec.type, ns)
        if value is None and name != arg:
            return None  # a required input object: such fields have tests of their own
        variables[name] = value
        params.append(f"${name}: {spec.type}")
        passed.append(f"{name}: ${name}")
    selection = _selection(definition.type)
    return (
        f"{operation}({', '.join(params)}) {{ {field}({', '.join(passed)}) {selection} }}",
        variables,
    )


def _selection(kind: GraphQLType) -> str:
    named = get_named_type(kind)
    fields = getattr(named, "fields", None)
    if not fields:
        return ""
    return "{ __typename }"


def test_every_list_argument_is_bounded(client: TestClient, ns: str) -> None:
    cases = _cases()
    assert len(cases) >= 20
    unbounded = []
    for operation, field, arg, value in cases:
        built = _document(operation, field, arg, ns)
        if built is None:
            continue
        query, variables = built
        variables[arg] = value
        body = post(client, query, variables)
        errors = body.get("errors") or []
        ext = errors[0].get("extensions", {}) if errors else {}
        named = ext.get("code") == "BAD_INPUT" and ext.get("field", "").startswith(arg)
        if not (named and ext.get("limit") is not None):
            unbounded.append((field, arg, errors[0]["message"][:120] if errors else "accepted"))
    assert unbounded == [], "\n".join(map(str, unbounded))


GAPS = "query($ns: String!) { gaps(namespace: $ns) { context count } }"
CONTEXT = """query($ns: String!, $c: String!) { context(namespace: $ns, context: $c, budget: 200) {
  text tokens } }"""


def test_context_over_get_records_nothing(client: TestClient, runtime: Runtime, ns: str) -> None:
    lonely = "the tide tables for a harbour nobody mentioned"
    params = {"query": CONTEXT, "variables": json.dumps({"ns": ns, "c": lonely})}
    for _ in range(3):
        got = client.get("/graphql", params=params, headers={"Accept": "application/json"})
        assert got.status_code == 200 and "errors" not in got.json(), got.text[:300]
    runtime.settle()
    assert post(client, GAPS, {"ns": ns})["data"]["gaps"] == []
    assert "errors" not in post(client, CONTEXT, {"ns": ns, "c": lonely})
    runtime.settle()
    gaps = post(client, GAPS, {"ns": ns})["data"]["gaps"]
    assert [g["count"] for g in gaps] == [1]  # the POST's, and only it
    recall = 'query($ns: String!) { recall(namespace: $ns, context: "tea") { gap } }'
    refused = client.get(
        "/graphql",
        params={"query": recall, "variables": json.dumps({"ns": ns})},
        headers={"Accept": "application/json"},
    )
    assert refused.json()["errors"][0]["extensions"]["code"] == "BAD_INPUT"


def test_json_nested_too_deep_is_a_typed_400_before_parsing(client: TestClient, ns: str) -> None:
    limit = client.app.state.settings.limits.max_json_depth  # type: ignore[attr-defined]
    memories = """query($ns: String!, $f: MemoryFilter) {
      memories(namespace: $ns, filter: $f) { nextCursor } }"""
    for depth in (100_000, limit + 1):
        nested = "[" * depth + "]" * depth
        body = f'{{"query": {json.dumps(memories)}, "variables": {{"ns": "{ns}", "f": {nested}}}}}'
        for path in ("/graphql", "/mcp"):
            got = client.post(path, content=body, headers={"Content-Type": "application/json"})
            assert got.status_code == 400, (path, depth, got.text[:200])
            error = got.json()["errors"][0]
            assert error["extensions"] == {"code": "BAD_INPUT", "field": "body", "limit": limit}
            assert "HIPPOGRAPH_MAX_JSON_DEPTH" in error["message"]
        variables = json.dumps({"ns": ns, "f": json.loads(nested)}) if depth < 1000 else None
        if variables is not None:
            got = client.get("/graphql", params={"query": memories, "variables": variables})
            assert (
                got.status_code == 400 and got.json()["errors"][0]["extensions"]["limit"] == limit
            )
    # Brackets inside strings are text, not nesting; an ordinary body passes.
    text = "[" * 10_000 + '\\"' + "{" * 10_000
    ok = post(client, memories, {"ns": ns, "f": {"tags": [text[:60]]}})
    assert "data" in ok
    deep_text = json.dumps({"query": memories, "variables": {"ns": ns, "x": text}})
    got = client.post("/graphql", content=deep_text, headers={"Content-Type": "application/json"})
    assert got.status_code == 200


def test_introspection_is_bounded_and_needs_a_key_when_keys_are_required(
    client: TestClient,
) -> None:
    standard = get_introspection_query(
        descriptions=True, specified_by_url=True, directive_is_repeatable=True,
        schema_description=True, input_value_deprecation=True,
    )  # fmt: skip  # graphql-js 16's, as GraphiQL sends it (9 levels of ofType)
    assert "__schema" in post(client, standard, {})["data"]
    deep = (
        "{ __schema { types { fields { type "
        + "{ ofType " * 40
        + "{ name }"
        + " }" * 40
        + " } } } }"
    )
    refused = post(client, deep, {})
    assert refused["errors"][0]["message"].startswith(
        "introspection exceeds maximum operation depth"
    )
    assert "data" not in refused or refused["data"] is None
    admin = create_key(client, "admin", ["*"], None)  # keys required from here on
    for query in (standard, '{ __type(name: "Memory") { name } }'):
        assert code(post(client, query, {})) == "UNAUTHENTICATED"
        assert code(post(client, query, {}, admin)) is None
    assert post(client, "{ __typename }", {})["data"] == {"__typename": "Query"}


def test_healthz_shows_no_file_path(client: TestClient) -> None:
    body = client.get("/healthz").json()
    assert body["embedding_model"] == "all-MiniLM-L6-v2"
    assert not [v for v in body.values() if isinstance(v, str) and "/" in v]
