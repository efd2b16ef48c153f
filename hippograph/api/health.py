"""The graph's health, probed in the background so that ``/healthz`` never waits on the engine.

``/healthz`` used to ping the graph inline: under heavy load (every core busy with recalls and
embeddings, the engine's threads queued) the ping, and so the probe, took up to 1.4 s, and an
orchestrator reading that as a dead server would restart a busy one. A probe thread now pings
every ``interval_s`` and keeps the last answer; ``/healthz`` reports it with its age. A ping
that has not come back for ``stale_s`` (the engine hung, or the driver cannot reach it) makes
the graph "down" just as a failed ping does.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GraphHealth:
    up: bool
    checked_ms_ago: float  # since the last ping answered (or failed)
    ping_ms: float | None  # how long that ping took; None before the first


class GraphProbe:
    """Pings with ``ping`` every ``interval_s`` on a thread of its own (see the module)."""

    def __init__(
        self, ping: Callable[[], None], *, interval_s: float = 1.0, stale_s: float = 10.0
    ) -> None:
        self._ping = ping
        self.interval_s = interval_s
        self.stale_s = stale_s
        self._lock = threading.Lock()
        self._up = False
        self._answered_at: float | None = None
        self._ping_ms: float | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="graph-probe", daemon=True)

    def start(self) -> GraphProbe:
        self._check()  # the first answer before the server reports ready
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def health(self) -> GraphHealth:
        now = time.monotonic()
        with self._lock:
            if self._answered_at is None:
                return GraphHealth(up=False, checked_ms_ago=float("inf"), ping_ms=None)
            age = now - self._answered_at
            return GraphHealth(
                up=self._up and age <= self.stale_s,
                checked_ms_ago=age * 1000,
                ping_ms=self._ping_ms,
            )

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            self._check()

    def _check(self) -> None:
        started = time.monotonic()
        error: Exception | None = None
        try:
            self._ping()
        except Exception as exc:  # noqa: BLE001 - a probe records, it does not raise
            error = exc
        done = time.monotonic()
        with self._lock:
            was_up, first = self._up, self._answered_at is None
            self._up = error is None
            self._answered_at = done
            self._ping_ms = (done - started) * 1000
        # One line when the graph goes down or comes back, not a traceback every probe (each
        # second); the traceback goes to DEBUG.
        if error is not None:
            log.debug("graph ping failed", exc_info=error)
            if was_up or first:
                log.warning("graph is down: the ping failed: %s", one_line(error))
        elif not was_up and not first:
            log.warning("graph is up again")


def one_line(error: BaseException) -> str:
    """``error``'s type and message on one line, at most 300 characters of it."""
    text = " ".join(str(error).split()) or "(no message)"
    return f"{type(error).__name__}: {text[:300]}"
