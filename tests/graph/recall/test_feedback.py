"""Post-retrieval maintenance: co-retrieval links, use boosts, ratings, gaps."""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from hippograph.graph.errors import InvalidInput, NotFound
from hippograph.graph.recall import feedback
from hippograph.graph.runtime import Runtime
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


def test_memories_surfaced_together_get_linked_then_reinforced(
    runtime: Runtime, namespace: str
) -> None:
    store = runtime.store
    a, b, c = (add_memory(store, namespace) for _ in range(3))
    add_edge(store, c, a, confidence=0.5, last_reinforced_at="2025-01-01T00:00:00.000000Z")
    effects = feedback.after_recall(store, namespace, [a, b, c], [], NOW)
    assert (effects.links_created, effects.links_reinforced) == (2, 1)
    e = edges(store, namespace)
    ab = e[(min(a, b), max(a, b))]
    assert (ab["kind"], ab["confidence"], ab["weight"]) == ("co_retrieval", 0.3, 0.5)
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
