"""Request limits of the real app (#21 part 2): body size, document tokens, depth and aliases,
``k`` summed over a request, GET refusing writes, and mutations reporting per field."""

from __future__ import annotations

import json

from starlette.testclient import TestClient
from strawberry.extensions.validation_cache import _get_validate_cache

from hippograph.api.app import create_app
from hippograph.api.errors import PARSE_FAILED, VALIDATION_FAILED
from hippograph.graph.runtime import Runtime
from tests.api.conftest import post


def count(client: TestClient, namespace: str) -> int:
    out = post(
        client, "query($ns: String!) { memories(namespace: $ns) { items { id } } }", ns=namespace
    )
    return len(out["data"]["memories"]["items"])


def test_body_over_the_limit_is_413_before_the_app_reads_it(runtime: Runtime) -> None:
    settings = runtime.settings.with_(max_body_bytes=4096)
    with TestClient(create_app(settings, runtime=runtime)) as client:
        small = client.post("/graphql", json={"query": "{ __typename }"})
        big = client.post("/graphql", json={"query": "{ __typename }", "pad": "x" * 5000})
        chunked = client.post(
            "/graphql",
            content=iter([b'{"query": "{ __typename }", "pad": "', b"x" * 5000, b'"}']),
            headers={"content-type": "application/json"},
        )
    assert small.status_code == 200 and small.json()["data"] == {"__typename": "Query"}
    assert big.status_code == 413 and "HIPPOGRAPH_MAX_BODY_BYTES" in big.text
    assert chunked.status_code == 413


def test_too_many_aliases_are_refused_with_nothing_run(client: TestClient, namespace: str) -> None:
    limit = 30  # the default HIPPOGRAPH_MAX_ALIASES
    fields = " ".join(
        f'a{i}: search(namespace: $ns, query: "tea", k: 1) {{ score }}' for i in range(limit + 1)
    )
    out = post(client, f"query($ns: String!) {{ {fields} }}", ns=namespace)
    assert out.get("data") is None
    [error] = out["errors"]
    assert error["extensions"]["code"] == VALIDATION_FAILED
    assert "aliases" in error["message"]


def test_depth_over_the_limit_is_refused(runtime: Runtime, namespace: str) -> None:
    settings = runtime.settings.with_(max_query_depth=2)
    query = "query($ns: String!) { memories(namespace: $ns) { items { source { filePaths } } } }"
    with TestClient(create_app(settings, runtime=runtime)) as client:
        deep = post(client, query, ns=namespace)
        shallow = post(
            client,
            "query($ns: String!) { memories(namespace: $ns) { items { id } } }",
            ns=namespace,
        )
    assert deep.get("data") is None
    [error] = deep["errors"]
    assert "exceeds maximum operation depth of 2" in error["message"]
    assert error["extensions"]["code"] == VALIDATION_FAILED
    assert shallow["data"] == {"memories": {"items": []}}


def test_a_document_is_validated_once_and_its_verdict_reused(runtime: Runtime) -> None:
    # The depth and alias rules are part of the validation cache's key: built anew per request
    # they made every request miss it and be validated again.
    validated = _get_validate_cache(256)  # the cache api/schema.py's ValidationCache uses
    settings = runtime.settings.with_(max_query_depth=2)
    ok = "query($ns: String!) { memories(namespace: $ns) { items { id } } }"
    deep = "query($ns: String!) { memories(namespace: $ns) { items { source { filePaths } } } }"
    with TestClient(create_app(settings, runtime=runtime)) as client:
        answers = []
        for document in (ok, deep):
            post(client, document, ns="limits-cache")  # validated once here
            before = validated.cache_info()
            answers += [post(client, document, ns="limits-cache") for _ in range(3)]
            after = validated.cache_info()
            assert after.misses == before.misses
            assert after.hits == before.hits + 3
    assert [a.get("data") for a in answers[:3]] == [{"memories": {"items": []}}] * 3
    for refused in answers[3:]:  # a cached verdict still refuses
        assert refused.get("data") is None
        assert refused["errors"][0]["extensions"]["code"] == VALIDATION_FAILED


def test_a_huge_document_stops_at_the_token_limit(client: TestClient) -> None:
    query = "{ " + " ".join("__typename" for _ in range(5000)) + " }"
    out = post(client, query)
    assert out.get("data") is None
    [error] = out["errors"]
    assert "4000 tokens" in error["message"]
    assert error["extensions"]["code"] == PARSE_FAILED


def test_k_summed_over_a_request_is_bounded_per_field(client: TestClient, namespace: str) -> None:
    # Six searches of k=200 ask for 1,200: the sixth passes the default 1,000 and is refused.
    fields = " ".join(
        f's{i}: search(namespace: $ns, query: "tea", k: 200) {{ score }}' for i in range(6)
    )
    out = post(client, f"query($ns: String!) {{ {fields} }}", ns=namespace)
    assert out["data"] is None  # search is non-null: a query answers whole or not at all
    [error] = out["errors"]
    assert error["path"] == ["s5"]
    assert error["extensions"]["code"] == "BAD_INPUT"
    assert error["extensions"]["field"] == "k"
    assert error["extensions"]["limit"] == 1000


def test_get_runs_no_mutation_and_no_recall(client: TestClient, namespace: str) -> None:
    variables = json.dumps({"ns": namespace})
    mutation = (
        'mutation($ns: String!) { remember(namespace: $ns, memory: {content: "by GET"}) {'
        + " created } }"
    )
    refused = client.get("/graphql", params={"query": mutation, "variables": variables})
    assert refused.status_code == 400  # Strawberry: mutations are not allowed over GET
    recall = client.get(
        "/graphql",
        params={
            "query": 'query($ns: String!) { recall(namespace: $ns, context: "tea") { gap } }',
            "variables": variables,
        },
    )
    body = recall.json()
    assert body["data"] is None or body["data"]["recall"] is None
    assert body["errors"][0]["extensions"]["field"] == "recall"
    assert count(client, namespace) == 0
    read = client.get("/graphql", params={"query": "{ __typename }"})
    assert read.status_code == 200 and read.json()["data"] == {"__typename": "Query"}


def test_a_failing_mutation_field_does_not_hide_a_stored_one(
    client: TestClient, namespace: str
) -> None:
    out = post(
        client,
        """mutation($ns: String!) {
          ok: remember(namespace: $ns, memory: {content: "the kettle is in the left cupboard"}) {
            memory { id content }
          }
          bad: forget(namespace: $ns, id: "not-a-uuid")
        }""",
        ns=namespace,
    )
    assert out["data"]["ok"]["memory"]["content"] == "the kettle is in the left cupboard"
    assert out["data"]["bad"] is None
    [error] = out["errors"]
    assert error["path"] == ["bad"] and error["extensions"]["code"] == "BAD_INPUT"
    assert count(client, namespace) == 1
