"""Secrets everywhere (#21 part 3): a secret sent in any field of a memory or a turn, through
the real GraphQL API, appears nowhere afterwards: not in the answers, the stored memory, its
tags, the RememberEvent log, Decision nodes, episodes, reasons or the export."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from hippograph.graph import transfer
from hippograph.graph.runtime import Runtime
from hippograph.graph.text import privacy
from tests.api.conftest import post

# (the secret, a sentence carrying it); realistic shapes, none of them live. The last four are
# secrets only in their context (a bare 40-character string or "hunter2-Xk9!pq" alone could be
# a checksum or a word): where a field holds a name (a tag, a path, a speaker, an id) the
# sentence goes there instead.
SELF_EVIDENT = {"openai", "aws_id", "slack", "stripe"}
SECRETS = {
    "openai": ("sk-proj-Ab3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5", "use key {} for the batch job"),
    "aws_id": ("AKIAQ3EGRZLBYX7KD2WP", "the deploy user is {} in us-east-1"),
    "aws_prose": ("TddJ8sXk2vQm9LwZp0RtY7uN3bHcFgA5eKj1Oi4M", "the secret is {} for prod"),
    "password_prose": ("hunter2-Xk9!pq", "the admin password is {} now"),
    "slack": ("xoxb-2748392011-93847562910-AbCdEfGhIjKlMnOpQrStUvWx", "bot token {} posts alerts"),
    "stripe": ("sk_live_51HxYzAbCdEfGhIjKlMnOpQr", "billing uses {} since May"),
    "conn": ("S3cr3tPw0rd", "connect with postgres://admin:{}@db.internal:5432/app"),
}


REMEMBER = """mutation($ns: String!, $m: MemoryInput!) {
  remember(namespace: $ns, memory: $m) {
    memory { id content tags steps prerequisites warnings triggerPatterns }
  }
}"""
INGEST = """mutation($ns: String!, $turns: [TurnInput!]!) {
  ingest(namespace: $ns, turns: $turns, flush: true) { stored }
}"""


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_a_secret_in_every_field_is_stored_nowhere(
    client: TestClient, runtime: Runtime, namespace: str, kind: str
) -> None:
    secret, sentence = SECRETS[kind]
    text = sentence.format(secret)
    name = secret if kind in SELF_EVIDENT else text
    memory = {
        "content": f"Deploy notes: {text}",
        "memoryType": "PROCEDURE",
        "scope": "PROJECT",
        "project": "infra",
        "sessionId": "s-1",
        "tags": ["deploy", name],
        "triggerPatterns": [text],
        "steps": [f"first {text}", "then restart"],
        "prerequisites": [text],
        "warnings": [text],
        "source": {
            "sessionId": "s-1",
            "messages": f"user: {text}",
            "snippet": text,
            "filePaths": [f"/home/u/{name}.txt"],
        },
    }
    stored = post(client, REMEMBER, ns=namespace, m=memory)
    assert "errors" not in stored, stored
    memory_id = stored["data"]["remember"]["memory"]["id"]
    other = post(client, REMEMBER, ns=namespace, m={"content": "Deploys run from the CI box"})
    other_id = other["data"]["remember"]["memory"]["id"]
    turns = [{"sessionId": "s-2", "turnIndex": 0, "speaker": name[:100], "text": text,
              "filePaths": [f"/srv/{name}"]}]  # fmt: skip
    assert "errors" not in post(client, INGEST, ns=namespace, turns=turns)
    echoed = post(
        client,
        "mutation($ns: String!, $id: ID!) { forget(namespace: $ns, id: $id) }",
        ns=namespace,
        id=name,
    )
    superseded = post(
        client,
        """mutation($ns: String!, $old: ID!, $new: ID!, $r: String!) {
          supersede(namespace: $ns, oldId: $old, newId: $new, reason: $r) { id }
        }""",
        ns=namespace,
        old=other_id,
        new=memory_id,
        r=f"because {text}",
    )
    assert superseded["data"]["supersede"]["id"] == other_id
    forgotten = post(
        client,
        "mutation($ns: String!, $id: ID!, $r: String!) {"
        " forget(namespace: $ns, id: $id, reason: $r) }",
        ns=namespace,
        id=other_id,
        r=f"stale: {text}",
    )
    assert forgotten["data"]["forget"] == other_id
    exported = json.dumps(list(transfer.export_lines(runtime.store, namespace)))
    kinds = {json.loads(line)["kind"] for line in []} | {
        record["kind"] for record in transfer.export_lines(runtime.store, namespace)
    }
    assert {"memory", "tag", "episode", "remember_event", "tombstone"} <= kinds
    for where, what in [
        ("remember answer", json.dumps(stored)),
        ("forget error", json.dumps(echoed)),
        ("export", exported),
    ]:
        assert secret not in what, where
        assert secret.lower() not in what.lower(), where
    assert "[REDACTED:" in exported
    assert echoed["errors"][0]["extensions"]["code"] == "BAD_INPUT"


@pytest.mark.parametrize(
    "text",
    [
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed the key lookup",
        "memory 550e8400-e29b-41d4-a716-446655440000 is the key fact",
        "the password is strong enough, said the audit",
        "payload = base64.b64encode(b'hello world')  # aGVsbG8gd29ybGQ=",
        "def connect(url: str) -> Engine: return create_engine(url, pool_size=5)",
        "see https://example.com/docs?page=2 for the secret sauce",
    ],
)
def test_ordinary_text_passes_the_filter(text: str) -> None:
    assert privacy.scan(text) == []
