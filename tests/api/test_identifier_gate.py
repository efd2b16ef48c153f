"""One gate for every identifier (#43): a secret planted in a tag of the ``tag`` mutation, an
ingested turn's ``sessionId`` (which episode ids are built from), a namespace, an ``observe``
session id or context, or a key's name is refused or redacted, and is found afterwards in no
answer and no file of the data directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from hippograph.api.keys import KeyStore
from hippograph.graph import validate
from hippograph.graph.errors import InvalidInput, SecretRejected
from hippograph.graph.runtime import Runtime
from tests.api.conftest import post

# Made-up secrets of live shapes, each unique to this file so a hit can only come from here.
SECRETS = (
    "ghp_Zq7XkVb2LmNw9PtR4sYc6HdJ8fGa1EuK3oTi",
    "AKIAZQ7XKVB2LMNW9PTR",
    "sk-proj-Qz7XkVb2LmNw9PtR4sYc6HdJ8fGa1EuK3oTiWx",
)
REMEMBER = """mutation($ns: String!, $c: String!) {
  remember(namespace: $ns, memory: {content: $c}) { memory { id } } }"""
TAG = """mutation($ns: String!, $id: ID!, $t: [String!]!) {
  tag(namespace: $ns, id: $id, tags: $t) { id tags } }"""
INGEST = """mutation($ns: String!, $turns: [TurnInput!]!) {
  ingest(namespace: $ns, turns: $turns, flush: true) { stored } }"""
OBSERVE = """mutation($ns: String!, $s: String!, $c: String!) {
  observe(namespace: $ns, sessionId: $s, context: $c) { accepted } }"""
PENDING = """query($ns: String!, $s: String!) {
  pending(namespace: $ns, sessionId: $s) { context } }"""


def codes(body: dict[str, object]) -> list[object]:
    errors = body.get("errors") or []
    assert isinstance(errors, list)
    return [e.get("extensions", {}).get("code") for e in errors]


def files_holding(root: Path, secret: str) -> list[Path]:
    needle = secret.encode()
    return [p for p in root.rglob("*") if p.is_file() and needle in p.read_bytes()]


def test_a_planted_secret_is_refused_or_redacted_everywhere(
    client: TestClient, runtime: Runtime, namespace: str
) -> None:
    made = post(client, REMEMBER, ns=namespace, c="Deploys run from the CI box.")
    memory_id = made["data"]["remember"]["memory"]["id"]
    answers: list[dict[str, object]] = []
    for secret in SECRETS:
        tagged = post(client, TAG, ns=namespace, id=memory_id, t=["deploy", secret])
        turns = [{"sessionId": f"s-{secret}", "turnIndex": 0, "role": "user", "text": "hello"}]
        ingested = post(client, INGEST, ns=namespace, turns=turns)
        scoped = post(client, REMEMBER, ns=f"{namespace}-{secret}"[:128], c="a note")
        observed = post(client, OBSERVE, ns=namespace, s=f"o-{secret}", c="what runs where")
        for body in (tagged, ingested, scoped, observed):
            assert codes(body) == ["SECRET_REJECTED"], body
        context = post(client, OBSERVE, ns=namespace, s="o-1", c=f"deploy with {secret} today")
        assert codes(context) == [], context
        answers += [tagged, ingested, scoped, observed, context]
    assert runtime.next_turn is not None and runtime.next_turn.settle()
    pending = post(client, PENDING, ns=namespace, s="o-1")
    assert "[REDACTED:" in pending["data"]["pending"]["context"]
    answers.append(pending)
    for secret in SECRETS:
        assert all(secret not in str(body) for body in answers), secret
        assert files_holding(runtime.settings.graph.data_dir, secret) == [], secret


@pytest.mark.parametrize("name", ["team\n", "team\r", " team", "team\x00"])
def test_a_namespace_is_one_line_to_its_end(name: str) -> None:
    with pytest.raises(InvalidInput):
        validate.namespace(name)


def test_a_key_name_with_a_secret_is_refused(tmp_path: Path) -> None:
    store = KeyStore(tmp_path)
    with pytest.raises(SecretRejected) as caught:
        store.create(f"ci {SECRETS[0]}", "read", ["team"])
    assert caught.value.field == "name"
    assert "HIPPOGRAPH_PRIVACY_MODE" not in caught.value.message
    assert not (tmp_path / "keys.json").exists()
    assert store.create("ci runner", "read", ["team"]).key.name == "ci runner"
