"""Oversized values in every string and list argument, and the largest documented batch, against
the real app in a real uvicorn server (#21 part 5): each answer is success or typed errors (never
INTERNAL), a refused request writes nothing, and ``/healthz`` answers throughout. The
``/healthz`` latencies measured while the requests run are printed (``pytest -s``)."""

from __future__ import annotations

import os
import statistics
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from hippograph.api.app import create_app
from hippograph.graph.runtime import Runtime
from tests.live_server import serve_in_thread

pytestmark = [pytest.mark.slow, pytest.mark.reliability]
BIG = "z" * 1_000_000  # 1 MB, one unbroken word
MANY = [f"t{i}" for i in range(10_000)]
MAX_BATCH = 1000  # HIPPOGRAPH_MAX_BATCH in docs/configuration.md
MAX_CONTENT = 32 * 1024  # HIPPOGRAPH_MAX_CONTENT_BYTES in docs/configuration.md
# The largest batch has MAX_BATCH items; each of MAX_CONTENT only with this set (minutes of
# embedding on 2 cores), else of 300 characters.
FULL = os.environ.get("HIPPOGRAPH_RELIABILITY_FULL") == "1"
# A probe that does not answer within this counts as down (the latencies are printed: the
# target is well under a second; a machine shared with other loads adds seconds).
HEALTHZ_TIMEOUT_S = 30.0
REMEMBER = """mutation($ns: String!, $m: MemoryInput!) {
  remember(namespace: $ns, memory: $m) { memory { id } } }"""
BATCH = """mutation($ns: String!, $ms: [MemoryInput!]!) {
  rememberBatch(namespace: $ns, memories: $ms) { memory { id } } }"""
INGEST = """mutation($ns: String!, $turns: [TurnInput!]!) {
  ingest(namespace: $ns, turns: $turns) { stored } }"""
COUNT = "query($ns: String!) { memories(namespace: $ns, first: 500) { items { id } } }"
EPISODES = "query($ns: String!) { episodes(namespace: $ns, first: 500) { uid } }"


def _memory(**fields: Any) -> dict[str, Any]:
    return {"content": "Ana likes green tea", **fields}


def _turn(**fields: Any) -> dict[str, Any]:
    return {"sessionId": "s", "turnIndex": 0, "text": "I like green tea", **fields}


def _type(case: str) -> str:
    """The GraphQL type of the argument a case fills: ids are ``ID``."""
    return "ID" if case.endswith((".id", ".fromId", ".memoryId")) else "String"


def _cases(ns: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(name, query, variables): one oversized value each."""
    memory_fields: dict[str, Any] = {
        "content": BIG, "project": BIG, "sessionId": BIG, "occurredAt": BIG,
        "tags": MANY, "triggerPatterns": MANY, "steps": MANY, "prerequisites": MANY,
        "warnings": MANY, "source": {"sessionId": BIG},
    }  # fmt: skip
    cases = [
        (f"memory.{k}", REMEMBER, {"ns": ns, "m": _memory(**{k: v})})
        for k, v in memory_fields.items()
    ]
    for k, v in {"messages": BIG, "snippet": BIG, "filePaths": MANY}.items():
        cases.append((f"memory.source.{k}", REMEMBER, {"ns": ns, "m": _memory(source={k: v})}))
    for k in ("tags", "steps", "warnings"):
        cases.append((f"memory.{k}[0]", REMEMBER, {"ns": ns, "m": _memory(**{k: [BIG]})}))
    cases.append(("namespace", REMEMBER, {"ns": BIG, "m": _memory()}))
    cases.append(("rememberBatch", BATCH, {"ns": ns, "ms": [_memory()] * (MAX_BATCH + 1)}))
    turn_fields: dict[str, Any] = {
        "sessionId": BIG, "text": BIG, "speaker": BIG, "role": BIG, "timestamp": BIG,
        "filePaths": MANY,
    }  # fmt: skip
    cases += [
        (f"turn.{k}", INGEST, {"ns": ns, "turns": [_turn(**{k: v})]})
        for k, v in turn_fields.items()
    ]
    many_turns = [_turn(turnIndex=i) for i in range(10_001)]
    cases.append(("ingest.turns", INGEST, {"ns": ns, "turns": many_turns}))
    # Values as variables (the validators see them) ...
    fields = {
        "recall.context": "recall(namespace: $ns, context: $v) { gap }",
        "recall.project": 'recall(namespace: $ns, context: "tea", project: $v) { gap }',
        "recall.sessionId": 'recall(namespace: $ns, context: "tea", sessionId: $v) { gap }',
        "search.query": "search(namespace: $ns, query: $v) { score }",
        "memory.id": "memory(namespace: $ns, id: $v) { id }",
        "history.memoryId": "history(namespace: $ns, memoryId: $v) { __typename }",
        "episodes.sessionId": "episodes(namespace: $ns, sessionId: $v) { uid }",
        "episodes.after": "episodes(namespace: $ns, after: $v) { uid }",
        "memories.after": "memories(namespace: $ns, after: $v) { nextCursor }",
    }
    cases += [
        (k, f"query($ns: String!, $v: {_type(k)}!) {{ {v} }}", {"ns": ns, "v": BIG})
        for k, v in fields.items()
    ]
    writes = {
        "forget.id": "forget(namespace: $ns, id: $v)",
        "forget.reason": 'forget(namespace: $ns, id: "x", reason: $v)',
        "link.fromId": 'link(namespace: $ns, fromId: $v, toId: "y") { weight }',
        "supersede.reason": 'supersede(namespace: $ns, oldId: "x", newId: "y", reason: $v) '
        "{ __typename }",
        "feedback.memoryId": "feedback(namespace: $ns, memoryId: $v, helpful: true) { confidence }",
    }
    cases += [
        (k, f"mutation($ns: String!, $v: {_type(k)}!) {{ {v} }}", {"ns": ns, "v": BIG})
        for k, v in writes.items()
    ]
    tag = 'mutation($ns: String!, $l: [String!]!) { tag(namespace: $ns, id: "x", tags: $l) {'
    cases.append(("tag.tags", tag + " id } }", {"ns": ns, "l": MANY}))
    # ... and inline: the document itself is refused before it is parsed.
    cases.append(
        (
            "document",
            f'query($ns: String!) {{ search(namespace: $ns, query: "{BIG}") {{ score }} }}',
            {"ns": ns},
        )
    )
    return cases


class Healthz:
    """Polls ``/healthz`` every 0.2 s from a thread; keeps every latency and failure."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.latencies: list[float] = []
        self.failures: list[str] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def __enter__(self) -> Healthz:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join(timeout=HEALTHZ_TIMEOUT_S + 5)

    def _poll(self) -> None:
        with httpx.Client() as client:
            while not self.done.wait(0.2):
                started = time.perf_counter()
                try:
                    r = client.get(f"{self.url}/healthz", timeout=HEALTHZ_TIMEOUT_S)
                    if r.status_code != 200:
                        self.failures.append(f"HTTP {r.status_code}")
                except httpx.HTTPError as exc:
                    self.failures.append(repr(exc))
                self.latencies.append(time.perf_counter() - started)

    def summary(self) -> str:
        lat = sorted(self.latencies)
        p50 = statistics.median(lat) * 1000
        return f"{len(lat)} probes, p50 {p50:.0f} ms, max {lat[-1] * 1000:.0f} ms"


@pytest.fixture
def url(runtime: Runtime) -> Iterator[str]:
    with serve_in_thread(create_app(runtime=runtime)) as base:
        yield base


def _post(url: str, query: str, variables: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    r = httpx.post(f"{url}/graphql", json={"query": query, "variables": variables}, timeout=600)
    return r.status_code, (r.json() if r.status_code == 200 else {})


def _counts(url: str, ns: str) -> tuple[int, int]:
    memories = _post(url, COUNT, {"ns": ns})[1]["data"]["memories"]["items"]
    turns = _post(url, EPISODES, {"ns": ns})[1]["data"]["episodes"]
    return len(memories), len(turns)


def test_oversized_values_get_typed_errors_and_write_nothing(url: str, namespace: str) -> None:
    outcomes: dict[str, str] = {}
    with Healthz(url) as health:
        for name, query, variables in _cases(namespace):
            before = _counts(url, namespace)
            status, body = _post(url, query, variables)
            errors = body.get("errors") or []
            codes = sorted({(e.get("extensions") or {}).get("code", "NO_CODE") for e in errors})
            outcomes[name] = f"HTTP {status} {codes or 'accepted'}"
            assert status in (200, 413), name
            assert not {"INTERNAL", "NO_CODE"} & set(codes), (name, errors[:1])
            if errors or status == 413:
                assert _counts(url, namespace) == before, name  # nothing written
    print(f"\noversized: {outcomes}\n/healthz meanwhile: {health.summary()}")
    assert health.failures == []
    # Every oversized value was refused (none is silently truncated and stored).
    assert all("accepted" not in o for o in outcomes.values()), outcomes


def _prose(i: int) -> str:
    words = [
        "the",
        "quarterly",
        "planning",
        "notes",
        "mention",
        "tea",
        "chess",
        "hiking",
        "and",
        "the",
        "new",
        "office",
    ]
    text = f"memory {i}:"
    n = 0
    while len(text) < (MAX_CONTENT if FULL else 400) - 100:
        text += f" {words[(i + n) % len(words)]}{n % 97}"
        n += 1
    return text


def test_the_largest_documented_batch_completes_while_healthz_answers(
    url: str, namespace: str
) -> None:
    batch = [{"content": _prose(i)} for i in range(MAX_BATCH)]
    with Healthz(url) as health:
        started = time.perf_counter()
        status, body = _post(url, BATCH, {"ns": namespace, "ms": batch})
        took = time.perf_counter() - started
    chars = len(batch[0]["content"])
    print(f"\nmax batch {MAX_BATCH} x {chars} chars: HTTP {status} in {took:.1f} s; "
          f"/healthz meanwhile: {health.summary()}")  # fmt: skip
    assert status == 200
    errors = body.get("errors") or []
    codes = {(e.get("extensions") or {}).get("code") for e in errors}
    assert "INTERNAL" not in codes and None not in codes, errors[:1]
    if not errors:
        assert len(body["data"]["rememberBatch"]) == MAX_BATCH
        assert _counts(url, namespace)[0] == min(MAX_BATCH, 500)  # one page
    assert health.failures == []
