"""The graph probe behind /healthz: it pings on a thread of its own, so the endpoint never waits
on the engine, and a ping that fails or stops answering turns the graph "down"."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import pytest

from hippograph.api.health import GraphProbe
from hippograph.graph.runtime import Runtime


def _within(seconds: float, condition: Callable[[], bool]) -> bool:
    """Whether ``condition`` holds within ``seconds`` (polled: the machine may be busy)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def test_the_probe_pings_the_real_graph(runtime: Runtime) -> None:
    probe = GraphProbe(runtime.store.ping, interval_s=0.05).start()
    try:
        first = probe.health()
        assert first.up and first.ping_ms is not None
        time.sleep(0.2)
        # pinged again since: the age restarts from the newer answer
        assert _within(5, lambda: probe.health().checked_ms_ago < 150)
        assert probe.health().up
    finally:
        probe.stop()


def test_a_ping_that_fails_or_hangs_turns_the_graph_down() -> None:
    failing = threading.Event()
    hanging = threading.Event()
    release = threading.Event()

    def ping() -> None:
        if failing.is_set():
            raise ConnectionError("engine away")
        if hanging.is_set():
            release.wait(30)

    probe = GraphProbe(ping, interval_s=0.02, stale_s=0.3).start()
    try:
        assert probe.health().up
        failing.set()
        assert _within(5, lambda: not probe.health().up)  # a failed ping
        failing.clear()
        assert _within(5, lambda: probe.health().up)  # up again
        hanging.set()
        # no answer for longer than stale_s: down, and the age says how long
        assert _within(5, lambda: not probe.health().up)
        assert probe.health().checked_ms_ago > 300
        hanging.clear()
        release.set()
        assert _within(5, lambda: probe.health().up)
    finally:
        probe.stop()
        release.set()


def test_before_a_first_answer_the_graph_is_not_up() -> None:
    probe = GraphProbe(lambda: None)
    health = probe.health()
    assert not health.up and health.ping_ms is None


def test_a_failing_graph_logs_one_line_not_a_traceback_per_probe(
    caplog: pytest.LogCaptureFixture,
) -> None:
    failing = threading.Event()
    failing.set()
    probes = []

    def ping() -> None:
        probes.append(1)
        if failing.is_set():
            raise ConnectionError("engine away\nsecond line of the driver's message")

    with caplog.at_level(logging.WARNING, logger="hippograph.api.health"):
        probe = GraphProbe(ping, interval_s=0.01).start()
        try:
            assert _within(5, lambda: len(probes) >= 10)
            failing.clear()
            assert _within(5, lambda: probe.health().up)
        finally:
            probe.stop()
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "graph is down: the ping failed: ConnectionError: engine away second line of the "
        "driver's message",
        "graph is up again",
    ]
    assert all(r.exc_info is None for r in caplog.records)
