"""Decay counts from what the service knows (learned, used), never from event time: the
write path, the decay job and feedback on the embedded engine, with the service clock moved."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest

from hippograph.graph import clock, memories
from hippograph.graph.model import NewMemory
from hippograph.graph.recall import feedback, retrieval
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath
from hippograph.jobs import registry
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import RunOptions

EVENT = "2023-05-08T13:56:00.000000Z"  # a LoCoMo session date: the past, said long ago


def decay(rt: Runtime, namespace: str) -> dict[str, int]:
    options = RunOptions(namespace=namespace, trigger="test")  # as_of: the service clock
    return dict(registry.run_job(rt.store, "decay", JobsConfig(), options).counts)


def remember(rt: Runtime, namespace: str, content: str, **fields: object) -> str:
    item = NewMemory(content=content, occurred_at=EVENT, **fields)  # type: ignore[arg-type]
    [result] = writepath.remember(rt.store, rt.embedder, namespace, [item], policy=rt.policy)
    return result.memory.id


def confidence(rt: Runtime, namespace: str, memory_id: str) -> float:
    return memories.get(rt.store, namespace, memory_id).confidence


def test_an_old_event_learned_now_keeps_its_confidence(runtime: Runtime, namespace: str) -> None:
    memory_id = remember(runtime, namespace, "Caroline went to a LGBTQ support group")
    stored = memories.get(runtime.store, namespace, memory_id)
    assert stored.created_at == EVENT and stored.learned_at > EVENT  # two clocks
    decay(runtime, namespace)
    # Before: aged from 2023 (~900 days at a 30-day e-folding time), about 1e-13.
    assert confidence(runtime, namespace, memory_id) == pytest.approx(0.9, rel=1e-3)


def test_decay_counts_from_learned_then_from_last_use(runtime: Runtime, namespace: str) -> None:
    memory_id = remember(runtime, namespace, "Melanie paints sunsets at the lake")
    learned = clock.now()
    clock.set_now(learned + timedelta(days=30))
    decay(runtime, namespace)
    assert confidence(runtime, namespace, memory_id) == pytest.approx(0.9 * math.exp(-1), rel=1e-3)
    feedback.use(runtime.store, namespace, [memory_id])  # used on day 30
    clock.set_now(learned + timedelta(days=45))
    decay(runtime, namespace)
    boost = 1 + 0.1 * math.log(2)  # one access
    expected = 0.9 * math.exp(-15 / 30) * boost
    assert confidence(runtime, namespace, memory_id) == pytest.approx(expected, rel=1e-3)


def test_speculation_expires_a_month_after_it_was_learned(runtime: Runtime, namespace: str) -> None:
    guess = remember(runtime, namespace, "Caroline might move to Sweden", confidence=0.3)
    learned = clock.now()
    assert decay(runtime, namespace).get("archived", 0) == 0  # the event is old, the guess new
    clock.set_now(learned + timedelta(days=29))
    assert decay(runtime, namespace).get("archived", 0) == 0
    clock.set_now(learned + timedelta(days=31))
    assert decay(runtime, namespace)["archived"] == 1
    assert memories.get(runtime.store, namespace, guess).status == "archived"


def test_an_old_fact_is_not_outranked_by_a_newer_weaker_match(
    runtime: Runtime, namespace: str
) -> None:
    start = clock.now()
    clock.set_now(start - timedelta(days=400))
    old = remember(runtime, namespace, "Caroline adopted a grey cat called Pixel from the shelter")
    clock.set_now(start - timedelta(days=90))
    new = remember(runtime, namespace, "Caroline visited the animal shelter to volunteer")
    clock.set_now(start)
    decay(runtime, namespace)
    # Decay faded the old one far below the new one (400 vs 90 days at a 30-day e-folding time)
    assert confidence(runtime, namespace, old) < 1e-4 < confidence(runtime, namespace, new)
    request = retrieval.RecallRequest(context="What is the name of Caroline's cat?", k=2)
    found = retrieval.recall(runtime.store, runtime.embedder, namespace, request)
    # ... but age alone is no evidence against a fact: the better match still ranks first.
    assert [i.memory.id for i in found.items][0] == old
