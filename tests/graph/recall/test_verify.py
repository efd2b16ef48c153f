"""Relevance verification against a local OpenAI-compatible server: rejected candidates are
dropped or flagged and decay gently, verified ones count as used, anything wrong serves the
unverified ranking marked as such; without an LLM, a gap returns no memories unless asked."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.graph import memories
from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import NewMemory
from hippograph.graph.models.llm import ChatClient, LLMConfig
from hippograph.graph.recall import retrieval
from hippograph.graph.recall.feedback import REJECT_FACTOR
from hippograph.graph.recall.verify import Verifier
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath
from hippograph.settings import Settings
from tests.conftest import TEST_HOSTS
from tests.graph.llm_server import Endpoint, serve

FACTS = [
    "Ada drinks green tea every morning.",
    "Ada's favourite tea shop is in Lisbon.",
    "The deploy pipeline runs on Tuesdays.",
]


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    yield from serve()


@pytest.fixture
def ids(runtime: Runtime, namespace: str) -> list[str]:
    results = writepath.remember(
        runtime.store,
        runtime.embedder,
        namespace,
        [NewMemory(content=c) for c in FACTS],
        policy=runtime.policy,
    )
    return [r.memory.id for r in results]


def recall(rt: Runtime, ns: str, verifier: Verifier | None, **kw: object) -> retrieval.RecallResult:
    request = retrieval.RecallRequest(context="what tea does Ada drink", k=5, **kw)  # type: ignore[arg-type]
    return retrieval.recall(
        rt.store, rt.embedder, ns, request, rt.cascade,
        services=retrieval.Services(verifier=verifier),
    )  # fmt: skip


def test_rejected_candidates_are_dropped_or_flagged_and_verdicts_feed_upkeep(
    runtime: Runtime, namespace: str, ids: list[str], endpoint: Endpoint
) -> None:
    tea, shop, deploy = ids
    client = ChatClient(LLMConfig(base_url=endpoint.url, model="m", timeout_s=5))
    try:
        verifier = Verifier(client, top_m=8)
        endpoint.content = json.dumps({"relevant": [tea]})
        unverified = recall(runtime, namespace, None, include_gap=True)
        assert unverified.verification == "not requested"
        returned = [i.memory.id for i in unverified.items]
        assert tea in returned and shop in returned

        dropped = recall(runtime, namespace, verifier, verify=True, include_gap=True)
        assert dropped.verification == "verified"
        assert [i.memory.id for i in dropped.items] == [tea]
        sent = endpoint.requests[-1][2]["messages"][1]["content"]
        assert "what tea does Ada drink" in sent and all(c in sent for c in FACTS[:2])

        flagged = recall(
            runtime, namespace, verifier, verify=True, rejected="flag", include_gap=True
        )
        marks = {i.memory.id: i.rejected for i in flagged.items}
        assert marks[tea] is False and marks[shop] is True

        before = {m.id: m for m in memories.get_many(runtime.store, namespace, ids)}
        runtime.after_recall(namespace, "what tea does Ada drink", dropped)
        runtime.settle()
        after = {m.id: m for m in memories.get_many(runtime.store, namespace, ids)}
        assert after[tea].access_count == before[tea].access_count + 1
        assert after[shop].access_count == before[shop].access_count
        assert after[shop].confidence == pytest.approx(before[shop].confidence * REJECT_FACTOR)
        # What the model left out of the candidates is rejected, nothing else is touched.
        assert dropped.verdict is not None and dropped.verdict.relevant == (tea,)
        refused = set(dropped.verdict.rejected)
        assert shop in refused and tea not in refused
        for other in refused:
            assert after[other].confidence == pytest.approx(
                before[other].confidence * REJECT_FACTOR
            )
        if deploy not in refused:
            assert after[deploy].confidence == before[deploy].confidence
    finally:
        client.close()


@pytest.mark.parametrize(
    "answer",
    ['{"relevant": ["not-a-candidate"]}', '{"relevant": "x"}', "no json here", '{"ok": []}'],
)
def test_a_bad_answer_serves_the_unverified_ranking(
    runtime: Runtime, namespace: str, ids: list[str], endpoint: Endpoint, answer: str
) -> None:
    client = ChatClient(LLMConfig(base_url=endpoint.url, model="m", timeout_s=5))
    try:
        endpoint.content = answer
        plain = recall(runtime, namespace, None, include_gap=True)
        checked = recall(runtime, namespace, Verifier(client), verify=True, include_gap=True)
        assert checked.verification.startswith("unverified: relevance")
        assert [i.memory.id for i in checked.items] == [i.memory.id for i in plain.items]
        assert checked.verdict is not None and not checked.verdict.verified
    finally:
        client.close()


def test_a_timeout_or_an_error_serves_the_unverified_ranking(
    runtime: Runtime, namespace: str, ids: list[str], endpoint: Endpoint
) -> None:
    client = ChatClient(LLMConfig(base_url=endpoint.url, model="m", timeout_s=0.5))
    try:
        endpoint.delay_s = 5
        slow = recall(runtime, namespace, Verifier(client), verify=True, include_gap=True)
        assert slow.verification.startswith("unverified:") and "0.5s" in slow.verification
        assert len(slow.items) >= 2
        endpoint.delay_s, endpoint.status = 0, 500
        failed = recall(runtime, namespace, Verifier(client), verify=True, include_gap=True)
        assert failed.verification.startswith("unverified:") and len(failed.items) >= 2
    finally:
        endpoint.release.set()
        client.close()


def test_without_an_llm_the_ranking_stands_and_a_gap_returns_nothing_unless_asked(
    runtime: Runtime, namespace: str, ids: list[str]
) -> None:
    asked = recall(runtime, namespace, None, verify=True)
    assert asked.verification == "unverified: no LLM is configured"
    assert asked.items[0].memory.id == ids[0]
    request = retrieval.RecallRequest(context="quantum chromodynamics of gluons")
    gap = retrieval.recall(runtime.store, runtime.embedder, namespace, request, runtime.cascade)
    assert gap.gap and gap.items == ()
    nearest = retrieval.recall(
        runtime.store,
        runtime.embedder,
        namespace,
        retrieval.RecallRequest(context="quantum chromodynamics of gluons", include_gap=True),
        runtime.cascade,
    )
    assert nearest.gap and len(nearest.items) == 3
    with pytest.raises(InvalidInput):
        recall(runtime, namespace, None, rejected="hide")


def test_verification_over_graphql(
    runtime: Runtime, namespace: str, ids: list[str], endpoint: Endpoint
) -> None:
    # TestClient's Host (testserver) allowed, as in the session's settings.
    settings = Settings.from_env(
        {}, llm_base_url=endpoint.url, llm_model="m", allowed_hosts=TEST_HOSTS
    )
    rt = Runtime.assemble(settings, runtime.store, runtime.embedder)
    assert rt.verifier is not None
    endpoint.content = json.dumps({"relevant": [ids[0]]})
    query = """query($ns: String!) {
      recall(namespace: $ns, context: "what tea does Ada drink", verify: true, rejected: FLAG,
             includeGap: true) { verification items { rejected memory { id } } } }"""
    try:
        with TestClient(create_app(runtime=rt)) as client:
            body = client.post("/graphql", json={"query": query, "variables": {"ns": namespace}})
        result = body.json()["data"]["recall"]
        assert result["verification"] == "verified"
        marks = {i["memory"]["id"]: i["rejected"] for i in result["items"]}
        assert marks[ids[0]] is False and marks[ids[1]] is True
    finally:
        # Not rt.close(): the store is the shared test engine's.
        assert rt.next_turn is not None
        rt.next_turn.close()
        rt.background.close()
        for close in rt.closers:
            close()
        rt.caches.close()
