"""The audit trail through the real app (#43): refusals without a valid key are counted and
sampled, so a flood of them leaves the genuine entries in place; erasures are audited with who,
when and how many, never the text."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.graph.runtime import Runtime
from tests.api.test_access import REMEMBER, code, create_key, gql
from tests.conftest import wipe

AUDIT = """query($ns: String, $limit: Int!) { audit(namespace: $ns, limit: $limit) {
  at keyId operation namespace outcome source counts { name value } } }"""
REFUSED = 1000


@pytest.fixture
def ns(runtime: Runtime) -> Iterator[str]:
    name = f"audit-{uuid.uuid4().hex[:8]}"
    yield name
    wipe(runtime.store, name)


def test_a_thousand_refused_requests_leave_the_genuine_entries(
    runtime: Runtime, tmp_path: Path, ns: str
) -> None:
    # The smallest trail the settings allow (4 KiB a file, 5 older files: ~24 KiB): one line
    # per refusal (~150 bytes) would have rotated the genuine entries away 6 times over.
    settings = runtime.settings.with_(data_dir=tmp_path, audit_max_bytes=4096)
    with TestClient(create_app(settings, runtime=runtime)) as client:
        admin = create_key(client, "admin", ["*"], None)
        writer = create_key(client, "write", [ns], admin)
        for i in range(3):
            assert code(gql(client, REMEMBER, writer, ns=ns, c=f"Ada's note {i}")) is None
        genuine = [e for e in gql(client, AUDIT, admin, ns=None, limit=100)["data"]["audit"]]
        assert len(genuine) == 2 + 3  # two createKey, three remember (the read is written after)

        started = time.monotonic()
        flood = "n" * 16_384  # the namespace value an attacker chooses
        for i in range(REFUSED):
            token = None if i % 2 else "not-a-key"
            body = gql(client, REMEMBER, token, ns=f"{flood}{i}", c="x")
            assert code(body) == "UNAUTHENTICATED"
        took = time.monotonic() - started
        files = sorted(p.name for p in tmp_path.glob("audit.jsonl*"))
        size = sum(p.stat().st_size for p in tmp_path.glob("audit.jsonl*"))

        after = gql(client, AUDIT, admin, ns=None, limit=1000)["data"]["audit"]
    print(f"\n{REFUSED} refused requests in {took:.1f} s; trail {size} bytes in {files}")
    kept = [e for e in after if e["keyId"] != "-"]
    assert [e for e in genuine if e in kept] == genuine  # every genuine entry still there
    samples = [e for e in after if e["keyId"] == "-" and e["operation"] == "remember"]
    assert len(samples) == 1  # one source (the test client): one sample line
    assert samples[0]["source"] == "testclient" and len(samples[0]["namespace"]) < 200
    summary = [e for e in after if e["operation"] == "refused"]
    assert len(summary) == 1
    counts = {c["name"]: c["value"] for c in summary[0]["counts"]}
    assert counts == {"requests": REFUSED, "sources": 1, "samples": 1}
    assert files == ["audit.jsonl"]  # nothing rotated


def test_refusals_of_many_sources_sample_each_once_up_to_the_cap(
    runtime: Runtime, tmp_path: Path, ns: str
) -> None:
    settings = runtime.settings.with_(data_dir=tmp_path)
    app = create_app(settings, runtime=runtime)
    with TestClient(app) as client:  # the lifespan runs once; the others share its state
        admin = create_key(client, "admin", ["*"], None)
        for i in range(30):
            other = TestClient(app, client=(f"192.0.2.{i}", 40000))
            for _ in range(3):
                assert code(gql(other, REMEMBER, None, ns=ns, c="x")) == "UNAUTHENTICATED"
        after = gql(client, AUDIT, admin, ns=None, limit=1000)["data"]["audit"]
    samples = [e for e in after if e["operation"] == "remember"]
    assert len(samples) == 20  # audit.MAX_SAMPLES a window, over every source
    assert len({e["source"] for e in samples}) == 20
    summary = next(e for e in after if e["operation"] == "refused")
    counts = {c["name"]: c["value"] for c in summary["counts"]}
    assert counts == {"requests": 90, "sources": 30, "samples": 20}


def test_erasures_are_audited_with_how_many_never_the_text(
    runtime: Runtime, tmp_path: Path, ns: str
) -> None:
    settings = runtime.settings.with_(data_dir=tmp_path)
    phrase = "Wombatgala"
    turns = [
        {"sessionId": "s1", "turnIndex": i, "speaker": "Ana",
         "text": f"I am going to the {phrase} number {i} in Lisbon."}
        for i in range(3)
    ]  # fmt: skip
    turns.append({"sessionId": "s2", "turnIndex": 0, "speaker": "Ana", "text": f"{phrase} again"})
    ingest = """mutation($ns: String!, $t: [TurnInput!]!) {
      ingest(namespace: $ns, turns: $t, flush: true) { stored } }"""
    with TestClient(create_app(settings, runtime=runtime)) as client:
        admin = create_key(client, "admin", ["*"], None)
        writer = create_key(client, "write", [ns], admin)
        writer_id = writer.split("_")[1]
        assert gql(client, ingest, writer, ns=ns, t=turns)["data"]["ingest"]["stored"] == 4
        episodes = gql(
            client, "query($ns: String!) { episodes(namespace: $ns, sessionId: \"s1\") { id } }",
            writer, ns=ns,
        )["data"]["episodes"]  # fmt: skip
        erase_turn = """mutation($ns: String!, $id: String!) {
          eraseTurn(namespace: $ns, id: $id) { turns memories } }"""
        one = gql(client, erase_turn, writer, ns=ns, id=episodes[0]["id"])["data"]["eraseTurn"]
        clear = """mutation($ns: String!) { clearSession(namespace: $ns, sessionId: "s1") {
          turns } }"""
        cleared = gql(client, clear, writer, ns=ns)["data"]["clearSession"]
        erase = """mutation($ns: String!, $t: String!) { erase(namespace: $ns, text: $t) {
          turns memories } }"""
        erased = gql(client, erase, writer, ns=ns, t=phrase)["data"]["erase"]
        after = gql(client, AUDIT, admin, ns=ns, limit=100)["data"]["audit"]
    assert one["turns"] == 1 and cleared["turns"] == 2 and erased["turns"] == 1
    rows = {
        e["operation"]: e for e in after if e["operation"] in ("eraseTurn", "clearSession", "erase")
    }
    for operation, done in (("eraseTurn", one), ("clearSession", cleared), ("erase", erased)):
        entry = rows[operation]
        assert entry["keyId"] == writer_id and entry["outcome"] == "ok" and entry["at"]
        counts = {c["name"]: c["value"] for c in entry["counts"]}
        assert counts["turns"] == done["turns"]
        assert set(counts) >= {"turns", "memories", "decisions", "gaps", "tags", "words"}
    text = (tmp_path / "audit.jsonl").read_text()
    assert phrase.lower() not in text.lower() and "Lisbon" not in text
    assert all(isinstance(json.loads(line), dict) for line in text.splitlines())
