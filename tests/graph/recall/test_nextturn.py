"""Next-turn mode on the real runtime: observe returns at once, the bundle is ready later, a
newer context replaces a waiting one, the queue is bounded, failures are reported."""

from __future__ import annotations

import threading

import pytest

from hippograph.graph.errors import InvalidInput, Overloaded
from hippograph.graph.model import NewMemory
from hippograph.graph.recall.bundle import ContextBundle, ContextRequest
from hippograph.graph.recall.nextturn import NextTurn
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath


@pytest.fixture
def filled(runtime: Runtime, namespace: str) -> str:
    writepath.remember(
        runtime.store,
        runtime.embedder,
        namespace,
        [
            NewMemory(content="Ada's standup is at 9:30 every weekday."),
            NewMemory(content="Ada is allergic to peanuts."),
        ],
        policy=runtime.policy,
    )
    return namespace


class Gate:
    """Holds the first build until released, so the test can queue behind it."""

    def __init__(self, rt: Runtime) -> None:
        self.rt, self.started, self.release = rt, threading.Event(), threading.Event()
        self.built: list[str] = []

    def __call__(self, namespace: str, request: ContextRequest) -> ContextBundle:
        if not self.started.is_set():
            self.started.set()
            assert self.release.wait(30)
        self.built.append(request.context)
        return self.rt.context_bundle(namespace, request)


def test_observe_then_pending_gives_the_bundle(runtime: Runtime, filled: str) -> None:
    assert runtime.next_turn is not None
    request = ContextRequest(context="what can Ada not eat", session_id="s1", budget=200)
    seen = runtime.next_turn.observe(filled, request)
    assert seen.accepted and not seen.replaced
    assert runtime.next_turn.settle()
    pending = runtime.next_turn.pending(filled, "s1")
    assert pending is not None and pending.error is None and pending.bundle is not None
    assert pending.context == "what can Ada not eat"
    assert "Ada is allergic to peanuts." in pending.bundle.text
    assert pending.bundle.tokens <= 200 and pending.age_s() >= 0
    assert pending.observed_at <= pending.finished_at
    assert runtime.next_turn.pending(filled, "other-session") is None
    assert runtime.next_turn.pending("another-namespace", "s1") is None


def test_a_newer_context_replaces_one_still_waiting(runtime: Runtime, filled: str) -> None:
    gate = Gate(runtime)
    turns = NextTurn(gate)
    try:
        turns.observe(filled, ContextRequest(context="first turn", session_id="a"))
        assert gate.started.wait(30)  # the first is running; the next ones wait
        assert not turns.observe(
            filled, ContextRequest(context="when is standup", session_id="b")
        ).replaced
        assert turns.observe(filled, ContextRequest(context="peanuts?", session_id="b")).replaced
        gate.release.set()
        assert turns.settle()
        assert gate.built == ["first turn", "peanuts?"]
        pending = turns.pending(filled, "b")
        assert pending is not None and pending.context == "peanuts?"
    finally:
        gate.release.set()
        turns.close()


def test_the_queue_is_bounded_and_failures_are_reported(runtime: Runtime, filled: str) -> None:
    gate = Gate(runtime)
    turns = NextTurn(gate, max_waiting=1)
    try:
        turns.observe(filled, ContextRequest(context="first", session_id="a"))
        assert gate.started.wait(30)
        turns.observe(filled, ContextRequest(context="second", session_id="b"))
        with pytest.raises(Overloaded):
            turns.observe(filled, ContextRequest(context="third", session_id="c"))
        # The session already waiting may still replace its own context.
        assert turns.observe(
            filled, ContextRequest(context="second, again", session_id="b")
        ).replaced
    finally:
        gate.release.set()
    assert turns.settle()
    assert gate.built == ["first", "second, again"]
    assert turns.pending(filled, "c") is None
    turns.close()

    bad = NextTurn(runtime.context_bundle)
    try:
        bad.observe(filled, ContextRequest(context="what", session_id="z", budget=0))
        assert bad.settle()
        pending = bad.pending(filled, "z")
        assert pending is not None and pending.bundle is None
        assert pending.error is not None and pending.error.startswith("BAD_INPUT: budget")
    finally:
        bad.close()
    with pytest.raises(InvalidInput):
        runtime.context_bundle(filled, ContextRequest(context="what", budget=0))
