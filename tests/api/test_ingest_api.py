"""The write-path GraphQL (ingest, history, episodes, consolidate, rebuild) through the app's
schema, executed against the embedded engine."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterator
from typing import Any

import pytest

from hippograph.api.schema import schema
from hippograph.graph.runtime import Runtime
from tests.graph.log_fixtures import log_runtime

SCHEMA = schema  # the app's schema, with every module's fields merged


@pytest.fixture
def rt(runtime: Runtime, namespace: str) -> Iterator[Runtime]:
    yield from log_runtime(runtime, namespace)


def gql(rt: Runtime, query: str, **variables: Any) -> dict[str, Any]:
    result = asyncio.run(
        SCHEMA.execute(query, variable_values=variables, context_value={"runtime": rt})
    )
    assert result.errors is None, result.errors
    assert result.data is not None
    return result.data


INGEST = """
mutation($ns: String!, $turns: [TurnInput!]!) {
  ingest(namespace: $ns, turns: $turns, flush: true) {
    stored duplicates extractedTurns pendingTurns actions { action count }
  }
}"""


def test_ingest_history_episodes_consolidate_rebuild(rt: Runtime, namespace: str) -> None:
    turns = [
        {"sessionId": "s1", "turnIndex": 0, "speaker": "Sam", "text": "I work at Google.",
         "timestamp": "2024-01-01T10:00:00Z"},
        {"sessionId": "s1", "turnIndex": 1, "speaker": "Sam",
         "text": "I now work at Microsoft.", "timestamp": "2024-03-01T10:00:00Z"},
    ]  # fmt: skip
    done = gql(rt, INGEST, ns=namespace, turns=turns)["ingest"]
    assert (done["stored"], done["extractedTurns"], done["pendingTurns"]) == (2, 2, 0)
    assert {a["action"] for a in done["actions"]} == {"ADD", "SUPERSEDE"}
    again = gql(rt, INGEST, ns=namespace, turns=turns)["ingest"]
    assert (again["stored"], again["duplicates"]) == (0, 2)

    log = gql(
        rt,
        "query($ns: String!) { episodes(namespace: $ns) { turnIndex text memoryIds } }",
        ns=namespace,
    )["episodes"]
    assert [e["turnIndex"] for e in log] == [0, 1]
    newest = log[1]["memoryIds"][0]
    h = gql(
        rt,
        """query($ns: String!, $id: ID!) { history(namespace: $ns, memoryId: $id) {
             decisions { action decider source targetId reason }
             supersedes { content status } } }""",
        ns=namespace,
        id=newest,
    )["history"]
    assert [d["action"] for d in h["decisions"]] == ["SUPERSEDE"]
    assert h["supersedes"] == [{"content": "Sam works at Google.", "status": "superseded"}]

    report = gql(
        rt,
        """mutation($ns: String!) { consolidate(namespace: $ns, dryRun: true, force: true) {
             ran dryRun counts operations { op } } }""",
        ns=namespace,
    )["consolidate"]
    assert report["dryRun"] and not report["ran"] and report["counts"]["groups"] == 0

    rebuilt = gql(
        rt, "mutation($ns: String!) { rebuild(namespace: $ns) { episodes active } }", ns=namespace
    )["rebuild"]
    assert rebuilt == {"episodes": 2, "active": 1}


def test_bad_input_is_a_typed_graphql_error(rt: Runtime, namespace: str) -> None:
    turns = [{"sessionId": "s1", "turnIndex": 0, "text": "hello there"}]
    result = asyncio.run(
        SCHEMA.execute(
            INGEST,
            variable_values={"ns": namespace, "turns": turns},
            context_value={"runtime": rt},
        )  # fmt: skip
    )
    assert result.errors and result.errors[0].extensions == {
        "code": "BAD_INPUT",
        "field": "turns[0].speaker",
    }


def ingest_errors(rt: Runtime, ns: str, turns: list[dict[str, Any]]) -> list[Any]:
    result = asyncio.run(
        SCHEMA.execute(INGEST, variable_values={"ns": ns, "turns": turns},
                       context_value={"runtime": rt})
    )  # fmt: skip
    assert result.errors, result.data
    return result.errors


def episode_texts(rt: Runtime, ns: str) -> list[str]:
    query = "query($ns: String!) { episodes(namespace: $ns) { turnIndex text } }"
    return [e["text"] for e in gql(rt, query, ns=ns)["episodes"]]


def turn(index: int, text: str) -> dict[str, Any]:
    return {"sessionId": "s1", "turnIndex": index, "speaker": "Sam", "text": text}


def test_a_turn_conflicting_within_the_batch_fails_it_whole(rt: Runtime, namespace: str) -> None:
    errors = ingest_errors(
        rt, namespace, [turn(0, "I like tea."), turn(1, "I run."), turn(1, "I swim.")]
    )
    ext = errors[0].original_error.extensions()
    assert ext["code"] == "TURN_CONFLICT" and (ext["session"], ext["turn"]) == ("s1", 1)
    assert ext["existingHash"] == hashlib.sha256(b"I run.").hexdigest()
    assert ext["incomingHash"] == hashlib.sha256(b"I swim.").hexdigest()
    assert episode_texts(rt, namespace) == []


def test_a_turn_conflicting_with_the_log_fails_the_batch_whole(rt: Runtime, namespace: str) -> None:
    gql(rt, INGEST, ns=namespace, turns=[turn(0, "I like tea.")])
    errors = ingest_errors(rt, namespace, [turn(1, "I run."), turn(0, "I like coffee.")])
    ext = errors[0].original_error.extensions()
    assert (ext["code"], ext["turn"]) == ("TURN_CONFLICT", 0)
    assert ext["existingHash"] == hashlib.sha256(b"I like tea.").hexdigest()
    assert episode_texts(rt, namespace) == ["I like tea."]


def test_a_repeated_identical_turn_is_counted_as_a_duplicate(rt: Runtime, namespace: str) -> None:
    first = gql(rt, INGEST, ns=namespace, turns=[turn(0, "I like tea."), turn(0, "I like tea.")])
    assert (first["ingest"]["stored"], first["ingest"]["duplicates"]) == (1, 1)
    again = gql(rt, INGEST, ns=namespace, turns=[turn(0, "I like tea."), turn(1, "I run.")])
    assert (again["ingest"]["stored"], again["ingest"]["duplicates"]) == (1, 1)
    assert episode_texts(rt, namespace) == ["I like tea.", "I run."]
