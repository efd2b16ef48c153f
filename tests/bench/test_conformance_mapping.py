"""The conformance adapter's mapping (bench/conformance/mapping.py): Hippograph's records read
as the suite's fields, and the ids derived for what Hippograph does not name. The suite itself
is not needed (it is not on PyPI): these check the plain fields the adapter builds its models of."""

from __future__ import annotations

import uuid

from bench.conformance import mapping
from bench.conformance.__main__ import registry_id, verdict
from hippograph.client.entity_views import Entity, Relationship
from hippograph.graph.model import Episode, Memory, Source
from hippograph.graph.runs.model import Run, RunStep, RunToolCall, ToolStats

AT = "2026-11-29T06:00:00.000001Z"


def turn(n: int, text: str, **more: object) -> Episode:
    return Episode(
        uid=f"ns|s|{n}", namespace="ns", session_id="s", turn_index=n, speaker="user",
        role=None, text=text, timestamp=None, file_paths=(), recorded_at=f"{AT[:-2]}{n}Z",
        high_signal=False, signal_kinds=(), extracted_at=None, extractor=None,
        id=str(uuid.uuid4()), **more,  # type: ignore[arg-type]
    )  # fmt: skip


def test_entity_types_and_kinds_map_both_ways() -> None:
    for suite_type, kind in (
        ("PERSON", "person"),
        ("ORGANIZATION", "organisation"),
        ("LOCATION", "location"),
        ("EVENT", "event"),
        ("OBJECT", "object"),
    ):
        assert (mapping.kind(suite_type), mapping.entity_type(kind)) == (kind, suite_type)


def test_a_session_reads_as_one_conversation_with_its_turns_in_order() -> None:
    turns = [turn(0, "Hello", metadata={"k": {"deep": [1]}}), turn(1, "")]
    conv = mapping.conversation("ns", "s", turns, now=AT)
    assert conv["id"] == mapping.conversation_id("ns", "s") != mapping.conversation_id("ns", "t")
    assert conv["id"] != mapping.conversation_id("other", "s")
    assert [(m["content"], m["role"], m["metadata"]) for m in conv["messages"]] == [
        ("Hello", "user", {"k": {"deep": [1]}}), ("", "user", {}),
    ]  # fmt: skip
    assert (conv["created_at"], conv["updated_at"]) == (turns[0].recorded_at, turns[1].recorded_at)
    assert conv["messages"][0]["id"] == uuid.UUID(turns[0].id)
    empty = mapping.conversation("ns", "s", [], now=AT)
    assert (empty["messages"], empty["created_at"], empty["updated_at"]) == ([], AT, None)


def test_a_run_reads_as_a_trace_with_derived_step_ids() -> None:
    run_id = str(uuid.uuid4())
    call = RunToolCall(
        id=str(uuid.uuid4()), run_id=run_id, step=1, seq=1, tool="search", arguments={"q": "a"},
        result=["x"], status="cancelled", duration_ms=None, error=None, at=AT, updated=AT,
    )  # fmt: skip
    step = RunStep(run_id=run_id, n=1, thought="t", action=None, observation=None, at=AT,
                   tool_calls=(call,))  # fmt: skip
    run = Run(
        id=run_id, namespace="ns", session="s", agent=None, task="Find Ana", started=AT,
        ended=None, outcome=None, success=None, status="running", step_count=1, call_count=1,
        steps=(step,),
    )  # fmt: skip
    trace = mapping.trace(run)
    (got,) = trace["steps"]
    assert got["id"] == mapping.step_id(run_id, 1) != mapping.step_id(run_id, 2)
    assert (got["trace_id"], got["step_number"]) == (uuid.UUID(run_id), 1)
    assert got["tool_calls"][0]["status"] == "cancelled"
    assert (trace["completed_at"], trace["success"], trace["session_id"]) == (None, None, "s")


def test_a_relationship_reads_as_a_fact_and_tool_stats_without_ended_calls_rate_zero() -> None:
    source, target = str(uuid.uuid4()), str(uuid.uuid4())
    r = Relationship(
        type="WORKS_AT", outgoing=True, other_uid=target, other_name="Acme", other_kind="object",
        since=AT, until=None, source="caller", recorded_at=AT,
    )  # fmt: skip
    fact = mapping.fact(source, "Alice", r)
    assert (fact["subject"], fact["predicate"], fact["object"]) == ("Alice", "WORKS_AT", "Acme")
    assert fact["id"] == mapping.relationship(source, r)["id"]
    later = Relationship(**{**r.__dict__, "since": "2027-01-01T00:00:00Z"})
    assert mapping.fact(source, "Alice", later)["id"] != fact["id"]
    stats = ToolStats(tool="t", calls=1, successes=0, failures=0, success_rate=None,
                      mean_duration_ms=None)  # fmt: skip
    assert mapping.tool_stats(stats)["success_rate"] == 0.0
    e = Entity(uid=source, name="Acme Corp", canonical="acme corp", kind="organisation",
               aliases=(), description=None, first_seen=AT, last_seen=AT, mentions=0,
               merged_into=None)  # fmt: skip
    assert (mapping.entity(e)["type"], mapping.entity(e)["created_at"]) == ("ORGANIZATION", AT)


def test_the_runner_reads_node_ids_and_counts_not_supported_apart() -> None:
    assert registry_id("tck/tests/v1/test_schema.py::TestA::test_b") == "test_schema::TestA::test_b"
    assert verdict("failed", "NotImplementedError: Hippograph does not rename") == "n/a"
    assert verdict("skipped", "Platinum: create_conversation not supported") == "n/a"
    assert verdict("failed", "AssertionError: assert 1 == 2") == "failed"
    assert verdict("skipped", "No adapter configured") == "skipped"


def test_a_preference_reads_its_category_from_its_tag_among_others() -> None:
    m = Memory(
        id=str(uuid.uuid4()), namespace="ns", content="Prefers Python", content_hash="h",
        memory_type="preference", scope="global", project=None, session_id=None,
        provenance="user_stated", source=Source(), created_at=AT, updated_at=AT,
        last_accessed=None, access_count=0, strength=1, reinforcements=(), confidence=1.0,
        trust_score=1.0, status="active", superseded_by=None, trigger_patterns=("at work",),
        steps=(), prerequisites=(), warnings=(),
        tags=("python", mapping.category_tag("language")),
    )  # fmt: skip
    got = mapping.preference(m)
    assert (got["category"], got["preference"], got["context"]) == (
        "language", "Prefers Python", "at work",
    )  # fmt: skip
