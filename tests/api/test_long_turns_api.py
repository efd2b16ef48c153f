"""Long turns are kept, not refused (#20 point 8): ``ingest`` stores a turn up to
HIPPOGRAPH_MAX_TURN_BYTES whole in its episode and makes memories of it in pieces, each
DERIVED_FROM the episode with its place in the turn; past the limit it is a typed error and
nothing is written; ``remember`` keeps the memory limit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from hippograph.api.schema import schema
from hippograph.graph.runtime import Runtime
from tests.graph.log_fixtures import log_runtime

PLACES = ["harbour", "orchard", "foundry", "library", "observatory", "granary", "mill", "quarry"]
TOOLS = ["lathe", "kiln", "loom", "press", "forge", "still", "winch", "bellows"]
NEEDLE = "The spare key to the Lisbon archive vault is kept by Ottoline Marchbanks."


def _long_turn(size: int) -> str:
    """``size``-odd bytes of a plan in numbered sections, the needle in its middle."""
    sections, total = [], 0
    i = 0
    while total < size:
        place, tool = PLACES[i % len(PLACES)], TOOLS[(i * 3) % len(TOOLS)]
        text = (
            f"Section {i}: at the {place} number {i * 7 + 3}, inspect the {tool} and log "
            f"its reading {i * 13 % 97} before shift {i % 5}; then file report R-{i:04d}."
        )
        sections.append(text)
        total += len(text) + 2
        i += 1
    sections.insert(len(sections) // 2, NEEDLE)
    return "\n\n".join(sections)


@pytest.fixture
def rt(runtime: Runtime, namespace: str) -> Iterator[Runtime]:
    yield from log_runtime(runtime, namespace)


def run(rt: Runtime, query: str, **variables: Any) -> Any:
    return asyncio.run(
        schema.execute(query, variable_values=variables, context_value={"runtime": rt})
    )


def gql(rt: Runtime, query: str, **variables: Any) -> dict[str, Any]:
    result = run(rt, query, **variables)
    assert result.errors is None, result.errors
    assert result.data is not None
    return result.data


INGEST = """
mutation($ns: String!, $turns: [TurnInput!]!) {
  ingest(namespace: $ns, turns: $turns, flush: true) { stored extractedTurns }
}"""
EPISODES = "query($ns: String!) { episodes(namespace: $ns) { uid text memoryIds } }"
MEMORIES = """query($ns: String!) { memories(namespace: $ns, first: 500) {
  items { id content source { messages } chunk { index count start end } } } }"""
RECALL = """query($ns: String!, $q: String!) { recall(namespace: $ns, context: $q, k: 5) {
  items { memory { id content chunk { index count start end } } } } }"""


def test_a_100_kb_turn_is_kept_whole_and_remembered_in_findable_pieces(
    rt: Runtime, namespace: str
) -> None:
    text = _long_turn(100_000)
    assert len(text.encode()) > rt.limits.max_content_bytes
    turns = [
        {"sessionId": "s1", "turnIndex": 0, "speaker": "Sam", "text": "Here is the plan."},
        {"sessionId": "s1", "turnIndex": 1, "role": "assistant", "text": text},
    ]
    done = gql(rt, INGEST, ns=namespace, turns=turns)["ingest"]
    assert (done["stored"], done["extractedTurns"]) == (2, 2)

    episodes = gql(rt, EPISODES, ns=namespace)["episodes"]
    assert episodes[1]["text"] == text  # the whole turn, in its episode
    pieces = [
        m for m in gql(rt, MEMORIES, ns=namespace)["memories"]["items"] if m["chunk"] is not None
    ]
    count = pieces[0]["chunk"]["count"]
    assert count >= 25  # 4,000-character pieces of ~100,000 characters
    assert sorted(m["chunk"]["index"] for m in pieces) == list(range(count))
    assert {m["chunk"]["count"] for m in pieces} == {count}
    assert {m["source"]["messages"] for m in pieces} == {"1"}
    assert set(episodes[1]["memoryIds"]) == {m["id"] for m in pieces}  # DERIVED_FROM the episode
    for m in pieces:
        c = m["chunk"]
        assert m["content"] == "assistant: " + text[c["start"] : c["end"]].strip()
    ordered = sorted(pieces, key=lambda m: m["chunk"]["index"])
    assert ordered[0]["chunk"]["start"] == 0 and ordered[-1]["chunk"]["end"] == len(text)
    pairs = zip(ordered, ordered[1:], strict=False)
    assert all(a["chunk"]["end"] == b["chunk"]["start"] for a, b in pairs)

    at = text.index(NEEDLE)
    holder = next(m for m in pieces if m["chunk"]["start"] <= at < m["chunk"]["end"])
    assert 0 < holder["chunk"]["index"] < count - 1  # from the middle of the turn
    found = gql(rt, RECALL, ns=namespace, q="Who keeps the spare key to the Lisbon archive vault?")
    assert found["recall"]["items"][0]["memory"]["id"] == holder["id"]

    # Rebuilding from the log makes the same pieces again.
    gql(rt, "mutation($ns: String!) { rebuild(namespace: $ns) { active } }", ns=namespace)
    again = gql(rt, MEMORIES, ns=namespace)["memories"]["items"]
    assert sorted((m["content"], m["chunk"]["start"]) for m in again if m["chunk"]) == sorted(
        (m["content"], m["chunk"]["start"]) for m in pieces
    )


def test_a_turn_over_the_turn_limit_is_refused_and_nothing_is_written(
    rt: Runtime, namespace: str
) -> None:
    limit = rt.limits.max_turn_bytes
    turns = [
        {"sessionId": "s1", "turnIndex": 0, "speaker": "Sam", "text": "I like tea."},
        {"sessionId": "s1", "turnIndex": 1, "speaker": "Sam", "text": _long_turn(limit + 10)},
    ]
    result = run(rt, INGEST, ns=namespace, turns=turns)
    assert result.errors
    ext = result.errors[0].extensions
    assert (ext["code"], ext["field"], ext["limit"]) == ("BAD_INPUT", "turns[1].text", limit)
    assert f"the limit is {limit} bytes" in result.errors[0].message
    assert gql(rt, EPISODES, ns=namespace)["episodes"] == []
    assert gql(rt, MEMORIES, ns=namespace)["memories"]["items"] == []


def test_remember_keeps_the_memory_limit(rt: Runtime, namespace: str) -> None:
    limit = rt.limits.max_content_bytes
    result = run(
        rt,
        """mutation($ns: String!, $c: String!) {
             remember(namespace: $ns, memory: {content: $c}) { created } }""",
        ns=namespace,
        c="x" * (limit + 1),
    )
    assert result.errors
    ext = result.errors[0].extensions
    assert (ext["code"], ext["limit"]) == ("BAD_INPUT", limit)
    assert ext["field"].endswith("content")
    assert gql(rt, MEMORIES, ns=namespace)["memories"]["items"] == []
