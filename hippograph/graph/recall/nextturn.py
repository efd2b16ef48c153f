"""Next-turn mode: a turn's context is handed over without waiting, its context bundle is built
in the background, and the agent picks it up at its next turn.

``observe`` returns at once. Work is keyed by (namespace, session): the newest context of a
session replaces an older one still waiting (only the latest turn matters), so a session has at
most one waiting and one running. At most ``max_waiting`` sessions wait; past that ``observe``
is refused with ``Overloaded`` and nothing is queued. ``pending`` returns the latest finished
bundle of a session with when it was observed and finished (it stays until a newer one
replaces it, so reading it twice gives the same answer); finished results of at most
``max_sessions`` sessions are kept, the least recently finished dropped first.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from hippograph.graph.errors import HippographError, Overloaded
from hippograph.graph.model import now_iso
from hippograph.graph.recall.bundle import ContextBundle, ContextRequest

log = logging.getLogger(__name__)
Key = tuple[str, str]  # (namespace, session id)
Build = Callable[[str, ContextRequest], ContextBundle]


@dataclass(frozen=True, kw_only=True)
class Observation:
    accepted: bool
    replaced: bool  # an older context of the session was still waiting and is dropped
    waiting: int  # sessions waiting, this one included


@dataclass(frozen=True, kw_only=True)
class Pending:
    context: str
    observed_at: str
    finished_at: str
    finished_monotonic: float
    bundle: ContextBundle | None  # None when building it failed
    error: str | None

    def age_s(self) -> float:
        """Seconds since the bundle was finished."""
        return max(0.0, time.monotonic() - self.finished_monotonic)


@dataclass(frozen=True)
class _Job:
    request: ContextRequest
    observed_at: str


class NextTurn:
    """Background bundles per session.

    Args:
        build: makes the bundle for (namespace, request); runs on the worker thread.
        max_waiting: sessions that may wait at once.
        max_sessions: sessions whose latest result is kept.
    """

    def __init__(self, build: Build, *, max_waiting: int = 256, max_sessions: int = 10_000) -> None:
        self._build = build
        self.max_waiting, self.max_sessions = max_waiting, max_sessions
        self._waiting: OrderedDict[Key, _Job] = OrderedDict()
        self._done: OrderedDict[Key, Pending] = OrderedDict()
        self._cond = threading.Condition()
        self._closed = False
        self._running: Key | None = None
        self._worker = threading.Thread(target=self._loop, name="hippograph-next-turn", daemon=True)
        self._worker.start()

    def observe(self, namespace: str, request: ContextRequest) -> Observation:
        """Queue ``request`` for the session ``request.session_id`` of ``namespace``."""
        key = (namespace, request.session_id or "")
        with self._cond:
            if self._closed:
                raise Overloaded("next-turn mode", "the service is shutting down")
            replaced = key in self._waiting
            if not replaced and len(self._waiting) >= self.max_waiting:
                raise Overloaded(
                    "next-turn mode", f"{self.max_waiting} sessions are already waiting"
                )
            self._waiting[key] = _Job(request, now_iso())
            self._cond.notify()
            return Observation(accepted=True, replaced=replaced, waiting=len(self._waiting))

    def pending(self, namespace: str, session_id: str) -> Pending | None:
        with self._cond:
            return self._done.get((namespace, session_id))

    def settle(self, timeout_s: float = 30.0) -> bool:
        """Wait until nothing waits or runs (tests); False on timeout."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while self._waiting or self._running is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return True

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._waiting.clear()
            self._cond.notify_all()
        self._worker.join(timeout=30)

    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._waiting and not self._closed:
                    self._cond.wait()
                if self._closed:
                    return
                key, job = self._waiting.popitem(last=False)
                self._running = key
            bundle, error = None, None
            try:
                bundle = self._build(key[0], job.request)
            except HippographError as exc:
                error = f"{exc.code}: {exc.message}"
            except Exception:  # noqa: BLE001 - one failed turn must not stop the worker
                log.exception("next-turn bundle failed for session %s", key[1])
                error = "INTERNAL: building the bundle failed"
            with self._cond:
                self._done[key] = Pending(
                    context=job.request.context,
                    observed_at=job.observed_at,
                    finished_at=now_iso(),
                    finished_monotonic=time.monotonic(),
                    bundle=bundle,
                    error=error,
                )
                self._done.move_to_end(key)
                while len(self._done) > self.max_sessions:
                    self._done.popitem(last=False)
                self._running = None
                self._cond.notify_all()
