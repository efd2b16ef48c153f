"""Every GraphQL error carries ``extensions.code`` and is logged once: a client's mistake as one
INFO line with its code, an unexpected error at ERROR with its traceback."""

from __future__ import annotations

import logging
import uuid
from typing import Any

import pytest
from starlette.testclient import TestClient

from hippograph.api.errors import MASKED_MESSAGE

LOGGERS = ("hippograph.api.errors", "strawberry.execution")


def post(client: TestClient, query: str, **variables: Any) -> list[dict[str, Any]]:
    response = client.post("/graphql", json={"query": query, "variables": variables})
    assert response.status_code in (200, 400), response.text
    errors = response.json()["errors"]
    assert isinstance(errors, list) and errors
    return errors


def records(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name in LOGGERS]


@pytest.mark.parametrize(
    ("query", "variables", "code"),
    [
        ('{ search(namespace: "n", query: "q", k: 1) { nope } }', {}, "GRAPHQL_VALIDATION_FAILED"),
        (
            '{ memories(namespace: "n", filter: {memoryType: NOT_A_TYPE}) { items { id } } }',
            {},
            "GRAPHQL_VALIDATION_FAILED",
        ),
        (
            '{ search(namespace: "n", query: "q", k: "three") { score } }',
            {},
            "GRAPHQL_VALIDATION_FAILED",
        ),
        ("{ search(namespace: ", {}, "GRAPHQL_PARSE_FAILED"),
        (
            'query($k: Int!) { search(namespace: "n", query: "q", k: $k) { score } }',
            {"k": "three"},
            "BAD_USER_INPUT",
        ),
    ],
    ids=["unknown-field", "unknown-enum", "wrong-scalar", "syntax", "bad-variable"],
)
def test_request_errors_carry_a_code_and_log_one_info_line(
    client: TestClient,
    caplog: pytest.LogCaptureFixture,
    query: str,
    variables: dict[str, Any],
    code: str,
) -> None:
    with caplog.at_level(logging.DEBUG, logger="hippograph.api.errors"):
        errors = post(client, query, **variables)
    assert [e["extensions"]["code"] for e in errors] == [code] * len(errors)
    logged = records(caplog)
    assert [(r.levelno, r.exc_info) for r in logged] == [(logging.INFO, None)] * len(errors)
    assert all(r.getMessage().startswith(f"{code} at request: ") for r in logged)


def test_typed_errors_log_one_info_line_with_their_code(
    client: TestClient, caplog: pytest.LogCaptureFixture, namespace: str
) -> None:
    missing = str(uuid.uuid4())
    with caplog.at_level(logging.DEBUG, logger="hippograph.api.errors"):
        not_found = post(
            client,
            "mutation($ns: String!, $id: ID!) { forget(namespace: $ns, id: $id) }",
            ns=namespace,
            id=missing,
        )
        bad = post(
            client,
            'query($ns: String!) { search(namespace: $ns, query: "q", k: 100000) { score } }',
            ns=namespace,
        )
    assert not_found[0]["extensions"]["code"] == "NOT_FOUND"
    assert bad[0]["extensions"]["code"] == "BAD_INPUT"
    assert bad[0]["extensions"]["field"] == "k"
    logged = records(caplog)
    assert [(r.levelno, r.exc_info) for r in logged] == [(logging.INFO, None)] * 2
    assert logged[0].getMessage().startswith("NOT_FOUND at forget: ")
    assert missing in logged[0].getMessage()
    assert logged[1].getMessage().startswith("BAD_INPUT at search: k:")
    assert all("\n" not in r.getMessage() for r in logged)


def test_secrets_in_an_error_message_do_not_reach_the_log(
    client: TestClient, caplog: pytest.LogCaptureFixture, namespace: str
) -> None:
    key = "sk-proj-" + "a1B2c3D4e5F6g7H8i9J0" * 2
    with caplog.at_level(logging.DEBUG, logger="hippograph.api.errors"):
        post(
            client,
            "mutation($ns: String!, $id: ID!) { forget(namespace: $ns, id: $id) }",
            ns=namespace,
            id=key,
        )
    assert records(caplog)
    assert all(key not in r.getMessage() for r in records(caplog))


def test_unexpected_errors_stay_error_with_a_traceback(
    client: TestClient,
    caplog: pytest.LogCaptureFixture,
    namespace: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("internal detail that must not leak")

    monkeypatch.setattr("hippograph.graph.memories.list_tags", explode)
    with caplog.at_level(logging.DEBUG, logger="hippograph.api.errors"):
        errors = post(client, "query($ns: String!) { tags(namespace: $ns) { name } }", ns=namespace)
    assert errors[0] == {
        "message": MASKED_MESSAGE,
        "locations": [{"line": 1, "column": 23}],
        "path": ["tags"],
        "extensions": {"code": "INTERNAL"},
    }
    logged = records(caplog)
    assert [r.levelno for r in logged] == [logging.ERROR]
    assert logged[0].exc_info is not None
    assert "internal detail that must not leak" in str(logged[0].exc_info[1])


def test_a_supersede_closing_a_cycle_is_supersede_cycle_naming_both_ids(
    client: TestClient, namespace: str
) -> None:
    remember = (
        "mutation($ns: String!, $c: String!) "
        "{ remember(namespace: $ns, memory: {content: $c}) { memory { id } } }"
    )
    ids = []
    for text in ("Ana drinks tea", "The office opens at nine"):
        out = client.post(
            "/graphql", json={"query": remember, "variables": {"ns": namespace, "c": text}}
        )
        ids.append(out.json()["data"]["remember"]["memory"]["id"])
    supersede = (
        "mutation($ns: String!, $o: ID!, $n: ID!) "
        "{ supersede(namespace: $ns, oldId: $o, newId: $n) { id status } }"
    )
    variables = {"ns": namespace, "o": ids[0], "n": ids[1]}
    ok = client.post("/graphql", json={"query": supersede, "variables": variables})
    assert ok.json()["data"]["supersede"]["id"] == ids[0]
    assert ok.json()["data"]["supersede"]["status"].lower() == "superseded"
    errors = post(client, supersede, ns=namespace, o=ids[1], n=ids[0])
    assert errors[0]["extensions"] == {"code": "SUPERSEDE_CYCLE", "oldId": ids[1], "newId": ids[0]}
