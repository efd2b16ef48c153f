"""The episode log and extraction, on the embedded engine."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from hippograph.graph.errors import InvalidInput, SecretRejected
from hippograph.graph.models.llm import ChatClient, LLMConfig
from hippograph.graph.runtime import Runtime, write_policy
from hippograph.graph.write import episodes
from tests.graph.llm_server import Endpoint, serve
from tests.graph.log_fixtures import active, every, log_runtime, turn

LOCOMO = Path(__file__).resolve().parents[4] / "shared" / "data" / "locomo" / "locomo-dev.json"


@pytest.fixture
def rt(runtime: Runtime, namespace: str) -> Iterator[Runtime]:
    yield from log_runtime(runtime, namespace)


def ingest(
    rt: Runtime, ns: str, *turns: episodes.NewTurn, flush: bool = False, **config: object
) -> episodes.IngestResult:
    return episodes.ingest(
        rt.store,
        rt.embedder,
        ns,
        list(turns),
        policy=rt.policy,
        config=episodes.ExtractionConfig(**config),  # type: ignore[arg-type]
        flush=flush,
    )


def test_turns_are_stored_once_chained_and_idempotent(rt: Runtime, namespace: str) -> None:
    turns = [
        turn("s1", 0, "Sam visited Rome on a long trip"),
        turn("s1", 1, "Sam has two cats"),
        turn("s1", 2, "Sam plays the cello"),
    ]
    first = ingest(rt, namespace, *turns)
    again = ingest(rt, namespace, *turns)
    assert (first.stored, first.duplicates) == (3, 0)
    assert (again.stored, again.duplicates) == (0, 3)
    log = episodes.list_episodes(rt.store, namespace)
    assert [(e.session_id, e.turn_index, e.speaker) for e in log] == [
        ("s1", 0, "Sam"),
        ("s1", 1, "Sam"),
        ("s1", 2, "Sam"),
    ]
    chain = rt.store.driver.execute_query(
        "MATCH (a:Episode)-[:NEXT]->(b:Episode) WHERE a.namespace = $ns "
        "RETURN a.turn_index AS a, b.turn_index AS b ORDER BY a",
        ns=namespace,
        database_=rt.store.database,
    ).records
    assert [(r["a"], r["b"]) for r in chain] == [(0, 1), (1, 2)]


def test_low_signal_turns_wait_in_the_buffer_until_count_or_flush(
    rt: Runtime, namespace: str
) -> None:
    result = ingest(rt, namespace, turn("s1", 0, "Sam went to the lake with friends"))
    assert (result.extracted_turns, result.pending_turns) == (0, 1)
    assert active(rt, namespace) == []
    # A full batch is extracted by count.
    more = [
        turn("s1", 1, "Sam is reading a novel about pirate ships"),
        turn("s1", 2, "Sam's sister teaches chemistry in Lyon"),
    ]
    result = ingest(rt, namespace, *more, batch_size=3)
    assert (result.extracted_turns, result.pending_turns) == (3, 0)
    assert len(active(rt, namespace)) == 3


def test_age_releases_the_buffer(rt: Runtime, namespace: str) -> None:
    ingest(rt, namespace, turn("s1", 0, "Sam bought a red bicycle last spring"))
    result = ingest(rt, namespace, turn("s1", 1, "Sam repainted the garden fence"), max_age_s=0)
    assert result.extracted_turns == 2 and result.pending_turns == 0


def test_a_high_signal_turn_is_extracted_at_once_with_the_turns_before_it(
    rt: Runtime, namespace: str
) -> None:
    result = ingest(
        rt,
        namespace,
        turn("s1", 0, "My manager is Jon Smith."),
        turn("s1", 1, "Remember that I prefer tea over coffee."),
        turn("s1", 2, "The weather was grey all week long."),
    )
    assert (result.extracted_turns, result.pending_turns) == (2, 1)
    contents = sorted(m.content for m in active(rt, namespace))
    assert any("Jon Smith" in c for c in contents) and any("tea" in c for c in contents)


def test_each_fact_is_derived_from_its_episodes(rt: Runtime, namespace: str) -> None:
    ingest(rt, namespace, turn("s1", 0, "I adopted a puppy named Max."), flush=True)
    [memory] = active(rt, namespace)
    assert memory.content == "Sam adopted a puppy named Max."
    [episode] = episodes.list_episodes(rt.store, namespace)
    assert episode.memory_ids == (memory.id,)
    assert episode.extractor == "offline" and episode.extracted_at is not None
    assert memory.source.session_id == "s1" and memory.source.messages == "0"
    assert memory.provenance == "extracted"


def test_secrets_never_reach_the_log(rt: Runtime, namespace: str) -> None:
    key = "sk-proj-" + "Ab3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kM9nP2rS5uX8"
    ingest(rt, namespace, turn("s1", 0, f"Our deploy key is {key} for staging"), flush=True)
    stored = rt.store.driver.execute_query(
        "MATCH (n) WHERE n.namespace = $ns AND (n:Episode OR n:Memory OR n:Decision) "
        "RETURN coalesce(n.text, n.content) AS text",
        ns=namespace,
        database_=rt.store.database,
    ).records
    assert stored and all(key not in (r["text"] or "") for r in stored)
    assert any("[REDACTED:openai_api_key]" in (r["text"] or "") for r in stored)
    strict = write_policy(rt.settings.with_(privacy_mode="reject"))
    with pytest.raises(SecretRejected) as err:
        episodes.ingest(
            rt.store,
            rt.embedder,
            namespace,
            [turn("s2", 0, "fine"), turn("s2", 1, "password=Hunter2!x9")],
            policy=strict,
        )
    assert err.value.field == "turns[1].text"
    assert [e.session_id for e in episodes.list_episodes(rt.store, namespace)] == ["s1"]


def test_bad_turns_are_typed_errors_and_store_nothing(rt: Runtime, namespace: str) -> None:
    bad = episodes.NewTurn(session_id="s1", turn_index=1, text="hello there", role="robot")
    with pytest.raises(InvalidInput) as err:
        ingest(rt, namespace, turn("s1", 0, "ok then"), bad)
    assert err.value.field == "turns[1].role"
    assert episodes.list_episodes(rt.store, namespace) == []


def test_same_locomo_conversation_twice_leaves_the_memory_count_unchanged(
    rt: Runtime, namespace: str
) -> None:
    if not LOCOMO.is_file():
        pytest.skip(f"LoCoMo data not found at {LOCOMO}")
    from hippograph.api.cli_ingest import locomo_turns

    turns = locomo_turns(json.loads(LOCOMO.read_text(encoding="utf-8")), 0)[:120]
    first = ingest(rt, namespace, *turns, flush=True)
    count = len(every(rt, namespace))
    second = ingest(rt, namespace, *turns, flush=True)
    assert first.stored == 120 and second.stored == 0 and second.duplicates == 120
    assert count > 50 and len(every(rt, namespace)) == count


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    yield from serve()


def test_llm_extraction_and_its_fallback(rt: Runtime, namespace: str, endpoint: Endpoint) -> None:
    fact = {
        "content": "Sam adopted a beagle named Max in March 2024.",
        "memory_type": "fact",
        "confidence": 0.95,
        "tags": ["Pets", "dogs"],
        "event_time": "2024-03-02T00:00:00+00:00",
        "source_turns": [0],
    }
    endpoint.content = json.dumps({"facts": [fact]})
    with ChatClient(LLMConfig(base_url=endpoint.url, model="m")) as client:
        ingest(rt, namespace, turn("s1", 0, "I adopted a beagle, Max!"), flush=True,
               client=client)  # fmt: skip
        endpoint.content = '{"facts": [{"content": "half an answer"}]}'  # breaks the schema
        ingest(rt, namespace, turn("s1", 1, "I started learning the cello."), flush=True,
               client=client)  # fmt: skip
    first, second = episodes.list_episodes(rt.store, namespace)
    assert (first.extractor, second.extractor) == ("llm", "offline (llm failed)")
    contents = {m.content: m for m in active(rt, namespace)}
    assert set(contents) == {
        "Sam adopted a beagle named Max in March 2024.",
        "Sam started learning the cello.",
    }
    llm_fact = contents["Sam adopted a beagle named Max in March 2024."]
    assert {"pets", "dogs"} <= set(llm_fact.tags) and llm_fact.confidence == 0.95
    assert llm_fact.created_at == "2024-03-02T00:00:00.000000Z"
