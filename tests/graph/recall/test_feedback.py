"""What the graph learns from use: co-use links, use boosts, ratings, gaps; and that being
returned by a recall, however often, reinforces nothing."""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from hippograph.graph.errors import InvalidInput, NotFound
from hippograph.graph.model import NewMemory, Source
from hippograph.graph.recall import feedback, retrieval
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import formation, writepath
from tests.jobs.conftest import add_edge, add_memory, edges, memory_props

NOW = datetime(2025, 6, 1, tzinfo=UTC)
STAMP = NOW.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@pytest.fixture(autouse=True)
def _gaps(runtime: Runtime, namespace: str) -> Iterator[None]:
    yield
    runtime.store.driver.execute_query(
        "MATCH (g:Gap) WHERE g.namespace = $ns DELETE g",
        ns=namespace,
        database_=runtime.store.database,
    )


def test_memories_used_together_get_linked_then_reinforced(
    runtime: Runtime, namespace: str
) -> None:
    store = runtime.store
    a, b, c = (add_memory(store, namespace) for _ in range(3))
    add_edge(store, c, a, confidence=0.5, last_reinforced_at="2025-01-01T00:00:00.000000Z")
    effects = feedback.after_recall(store, namespace, [a, b, c], [], NOW)
    assert (effects.links_created, effects.links_reinforced) == (2, 1)
    e = edges(store, namespace)
    ab = e[(min(a, b), max(a, b))]
    assert (ab["kind"], ab["confidence"], ab["weight"]) == ("co_use", 0.3, 0.5)
    assert e[(c, a)]["confidence"] == pytest.approx(0.6)  # existing edge, either direction
    assert e[(c, a)]["last_reinforced_at"] == STAMP
    again = feedback.after_recall(store, namespace, [b, a], [], NOW + timedelta(minutes=1))
    assert (again.links_created, again.links_reinforced) == (0, 1)
    assert edges(store, namespace)[(min(a, b), max(a, b))]["confidence"] == pytest.approx(0.4)
    assert len(edges(store, namespace)) == 3


def test_reinforcement_is_capped_at_one(runtime: Runtime, namespace: str) -> None:
    a, b = (add_memory(runtime.store, namespace) for _ in range(2))
    add_edge(runtime.store, a, b, confidence=0.95)
    feedback.after_recall(runtime.store, namespace, [a, b], [], NOW)
    assert edges(runtime.store, namespace)[(a, b)]["confidence"] == 1.0


def test_used_memories_count_an_access_and_regain_confidence(
    runtime: Runtime, namespace: str
) -> None:
    store = runtime.store
    old = (NOW - timedelta(days=60)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    m = add_memory(store, namespace, created_at=old, confidence=0.1, access_count=1)
    other = add_memory(store, namespace, created_at=old, confidence=0.1)
    effects = feedback.after_recall(store, namespace, [m, other], [m], NOW)
    assert effects.memories_touched == 1
    props = memory_props(store, namespace)
    assert props[m]["access_count"] == 2 and props[m]["last_accessed"] == STAMP
    assert props[m]["confidence"] == pytest.approx(0.9 * (1 + 0.1 * math.log(3)))
    assert props[other]["confidence"] == 0.1 and props[other]["access_count"] == 0


def test_feedback_boosts_confirms_or_gently_decays(runtime: Runtime, namespace: str) -> None:
    store = runtime.store
    m = add_memory(store, namespace, created_at=STAMP, initial_confidence=0.3, confidence=0.3)
    up = feedback.feedback(store, namespace, m, True, NOW)
    assert up.initial_confidence == pytest.approx(0.35) and up.confidence == pytest.approx(0.35)
    assert memory_props(store, namespace)[m]["confirmed_at"] == STAMP
    down = feedback.feedback(store, namespace, m, False, NOW)
    assert down.initial_confidence == pytest.approx(0.315)
    assert (down.helpful_count, down.unhelpful_count) == (1, 1)
    with pytest.raises(NotFound):
        feedback.feedback(store, namespace, str(uuid.uuid4()), True, NOW)


def test_gaps_are_logged_counted_and_listed(runtime: Runtime, namespace: str) -> None:
    store = runtime.store
    first = feedback.log_gap(store, namespace, "How do I rotate the API keys?", 0.12, NOW)
    again = feedback.log_gap(
        store, namespace, "how do I rotate the  API keys", 0.2, NOW + timedelta(hours=1)
    )
    other = feedback.log_gap(store, namespace, "Where is the staging DB?", None, NOW)
    assert first == again != other
    gaps = feedback.list_gaps(store, namespace, 10)
    assert [g.id for g in gaps] == [first, other]
    assert (gaps[0].count, gaps[0].best_score) == (2, 0.2)
    assert gaps[1].best_score is None
    with pytest.raises(InvalidInput):
        feedback.log_gap(store, namespace, "   ", 0.0)


def test_several_recalls_in_one_transaction_apply_as_one_after_another(
    runtime: Runtime, namespace: str
) -> None:
    """The coalesced form, merged into one recall's statements: the second recall reinforces
    the link the first one created, an existing link is reinforced once per recall, each use
    counts; the effects count distinct links and memories."""
    store = runtime.store
    a, b, c, d = (add_memory(store, namespace) for _ in range(4))
    add_edge(store, d, c, confidence=0.5, last_reinforced_at="2025-01-01T00:00:00.000000Z")
    recalls = [([a, b], [a]), ([b, a, c], [a, c]), ([c, d], []), ([d, c], [])]
    effects = feedback.after_recalls(store, namespace, recalls, NOW)
    assert (effects.links_created, effects.links_reinforced) == (3, 1)
    assert effects.memories_touched == 2
    e = edges(store, namespace)
    assert e[(min(a, b), max(a, b))]["confidence"] == pytest.approx(0.4)  # 0.3, then + 0.1
    assert e[(min(a, b), max(a, b))]["reinforced_count"] == 1
    assert e[(d, c)]["confidence"] == pytest.approx(0.7)  # 0.5 + 2 x 0.1
    assert e[(d, c)]["reinforced_count"] == 2
    assert len(e) == 4
    props = memory_props(store, namespace)
    assert (props[a]["access_count"], props[b]["access_count"], props[c]["access_count"]) == (
        2,
        0,
        1,
    )


# ---------------------------------------------------------------- returned is not used

DIARY = [
    "Simmered a tomato sauce with garlic for the pasta tonight.",
    "Baked sourdough bread with a crunchy crust this morning.",
    "The risotto needs constant stirring and warm stock.",
    "Grilled vegetables on the barbecue for the family dinner.",
    "Hiked up the ridge trail and saw the glacier at sunrise.",
    "Camped by the alpine lake after a long mountain climb.",
    "My boots got soaked crossing the river on the trek.",
    "Packed a stove and dried meals for the three-day hike.",
    "Refactored the parser module and the unit tests pass again.",
    "The deployment failed because the database migration timed out.",
    "Practised the piano sonata slowly with a metronome.",
    "The choir rehearsal ran late before the winter concert.",
]
DINNER = "What did I cook for dinner with the family?"


def _diary(rt: Runtime, namespace: str) -> None:
    items = [
        NewMemory(content=t, source=Source(session_id="s1", messages=f"D1:{i}"))
        for i, t in enumerate(DIARY)
    ]
    writepath.remember(rt.store, rt.embedder, namespace, items, policy=rt.policy)
    formation.link_adjacent(rt.store, namespace)


def _recall(rt: Runtime, namespace: str) -> retrieval.RecallResult:
    request = retrieval.RecallRequest(context=DINNER, k=10)
    return retrieval.recall(rt.store, rt.embedder, namespace, request, config=rt.cascade)


def test_repeating_a_recall_fifty_times_changes_nothing_that_ranks(
    runtime: Runtime, namespace: str
) -> None:
    """Each recall's upkeep is flushed before the next: ids, order, scores and confidences
    stay as they were (before, the top 3 counted as used: their confidence rose and the
    recency boost reset, so whatever came back once came back higher). Only the diagnostic
    counts move; no link is formed from mere co-return."""
    _diary(runtime, namespace)
    links = edges(runtime.store, namespace)
    before = memory_props(runtime.store, namespace)
    first = _recall(runtime, namespace)
    assert len(first.items) == 10  # relevant and irrelevant ones alike
    ranking = [(i.memory.id, i.score) for i in first.items]
    result = first
    for _ in range(50):
        runtime.after_recall(namespace, DINNER, result)
        runtime.settle()
        result = _recall(runtime, namespace)
        assert [i.memory.id for i in result.items] == [m for m, _ in ranking]
        assert [i.score for i in result.items] == pytest.approx([s for _, s in ranking])
    after = memory_props(runtime.store, namespace)
    assert edges(runtime.store, namespace) == links
    for memory_id, props in after.items():
        kept = {k: before[memory_id].get(k) for k in ("confidence", "access_count")}
        assert {k: props.get(k) for k in kept} == kept
        assert props.get("last_accessed") is None
    assert {after[m]["returned_count"] for m, _ in ranking} == {50}
    assert all(after[m]["last_returned_at"] for m, _ in ranking)


def test_explicit_use_and_helpful_feedback_still_reinforce(
    runtime: Runtime, namespace: str
) -> None:
    """The client's report of use (and helpful feedback) is evidence: the memory counts an
    access, regains confidence, gets the recency boost and scores higher; memories used
    together are linked."""
    _diary(runtime, namespace)
    first = _recall(runtime, namespace)
    ids = [i.memory.id for i in first.items]
    adjacent = {frozenset(pair) for pair in edges(runtime.store, namespace)}  # consecutive turns
    low = ids[-1]
    other = next(i for i in ids[:-1] if frozenset((low, i)) not in adjacent)
    effects = feedback.use(runtime.store, namespace, [low, other])
    assert (effects.memories_touched, effects.links_created, effects.links_reinforced) == (2, 1, 0)
    props = memory_props(runtime.store, namespace)
    assert props[low]["access_count"] == 1 and props[low]["last_accessed"]
    assert props[low]["confidence"] > float(first.items[-1].memory.confidence)
    assert edges(runtime.store, namespace)[(min(low, other), max(low, other))]["kind"] == "co_use"
    scores = {i.memory.id: i.score for i in _recall(runtime, namespace).items}
    assert scores[low] > first.items[-1].score
    rating = feedback.feedback(runtime.store, namespace, ids[0], True)
    assert rating.confidence > float(first.items[0].memory.confidence)


def test_a_judges_verdict_is_evidence_and_its_failure_is_none(
    runtime: Runtime, namespace: str
) -> None:
    """The hook for a relevance verdict (the configured LLM's, once built): what the judge
    calls relevant counts as used; what it does not, or a judge that fails, changes nothing."""
    from hippograph.graph.runtime import Background, RecallUpkeep

    _diary(runtime, namespace)
    result = _recall(runtime, namespace)
    ids = [i.memory.id for i in result.items]

    class Judge:
        fail = False

        def relevant(self, context: str, items: object) -> list[str]:
            if self.fail:
                raise RuntimeError("model down")
            return [ids[3], "not-a-returned-id"]

    judge = Judge()
    background = Background()
    try:
        upkeep = RecallUpkeep(runtime.store, background, interval_s=60, judge=judge)
        upkeep.add(namespace, DINNER, result)
        upkeep.flush()
        judge.fail = True
        upkeep.add(namespace, DINNER, result)
        upkeep.flush()
    finally:
        background.close()
    props = memory_props(runtime.store, namespace)
    assert [props[i].get("access_count") for i in ids] == [1 if i == ids[3] else 0 for i in ids]
    assert {props[i]["returned_count"] for i in ids} == {2}


def test_use_takes_at_most_a_recall_s_worth_of_ids(runtime: Runtime, namespace: str) -> None:
    with pytest.raises(InvalidInput) as error:
        feedback.use(runtime.store, namespace, [str(uuid.uuid4()) for _ in range(201)])
    assert error.value.field == "memoryIds"
    with pytest.raises(InvalidInput):
        feedback.use(runtime.store, namespace, ["not an id"])
