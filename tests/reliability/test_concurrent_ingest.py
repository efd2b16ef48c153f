"""Concurrent ``ingest`` calls on one namespace, through the real app in a real uvicorn server
(#21 part 5): each turn is extracted once, so the memories, their strength and the tag counts
are exactly those of the same turns ingested by one client."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from hippograph.api.app import create_app
from hippograph.graph.runtime import Runtime
from tests.conftest import wipe
from tests.live_server import serve_in_thread

pytestmark = [pytest.mark.slow, pytest.mark.reliability]
CLIENTS = 4
INGEST = """mutation($ns: String!, $turns: [TurnInput!]!) {
  ingest(namespace: $ns, turns: $turns, flush: true) { stored duplicates extractedTurns } }"""
STATE = """query($ns: String!) {
  memories(namespace: $ns, first: 500) { items { content strength tags } }
  tags(namespace: $ns) { name count }
  episodes(namespace: $ns, first: 500) { sessionId turnIndex extractedAt memoryIds } }"""
FACTS = [
    "I work at Google as a data engineer.",
    "My sister Ana lives in Lisbon.",
    "I am allergic to peanuts.",
    "I started learning the cello in March.",
    "My favourite tea is genmaicha.",
    "I moved to Berlin last year.",
]


def _turns(session: str) -> list[dict[str, Any]]:
    return [
        {"sessionId": session, "turnIndex": i, "speaker": "Sam", "text": text}
        for i, text in enumerate(FACTS)
    ]


@pytest.fixture
def url(runtime: Runtime) -> Iterator[str]:
    with serve_in_thread(create_app(runtime=runtime)) as base:
        yield base


def _post(url: str, query: str, **variables: Any) -> dict[str, Any]:
    r = httpx.post(f"{url}/graphql", json={"query": query, "variables": variables}, timeout=300)
    assert r.status_code == 200, r.text[:500]
    body = r.json()
    assert not body.get("errors"), body["errors"]
    return dict(body["data"])


def _state(url: str, ns: str) -> tuple[list[tuple[str, int, tuple[str, ...]]], dict[str, int]]:
    data = _post(url, STATE, ns=ns)
    memories = sorted(
        (m["content"], m["strength"], tuple(sorted(m["tags"]))) for m in data["memories"]["items"]
    )
    return memories, {t["name"]: t["count"] for t in data["tags"]}


def test_concurrent_ingests_extract_each_turn_once(
    url: str, namespace: str, runtime: Runtime
) -> None:
    reference = f"{namespace}-one-client"
    try:
        _post(url, INGEST, ns=reference, turns=_turns("a") + _turns("b"))
        # Every client sends both sessions: the same turns arrive CLIENTS times at once.
        answers: list[dict[str, Any]] = []
        errors: list[BaseException] = []

        def client() -> None:
            try:
                answers.append(_post(url, INGEST, ns=namespace, turns=_turns("a") + _turns("b")))
            except BaseException as exc:  # reported below, with the others
                errors.append(exc)

        threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        assert errors == []
        stored = sum(a["ingest"]["stored"] for a in answers)
        duplicates = sum(a["ingest"]["duplicates"] for a in answers)
        print(f"\n{CLIENTS} concurrent ingests: stored {stored}, duplicates {duplicates}")
        assert stored == 2 * len(FACTS)  # each turn logged once
        assert duplicates == (CLIENTS - 1) * 2 * len(FACTS)
        episodes = _post(url, STATE, ns=namespace)["episodes"]
        assert len(episodes) == 2 * len(FACTS)
        assert all(e["extractedAt"] for e in episodes)
        # Strength and tag counts are those of one client's ingest: nothing extracted twice.
        assert _state(url, namespace) == _state(url, reference)
    finally:
        wipe(runtime.store, reference)
