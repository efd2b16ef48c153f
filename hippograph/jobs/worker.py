"""The worker: runs due jobs one after another until asked to stop.

It reconnects when the graph goes away (Neo4j restarting), except from an embedded engine whose
owner, a ``serve``, stopped: then it ends with that error (``OwnerGone``) within a second,
leaving the data directory to the server when it comes back. A job another worker is running
is skipped (its lock). On stop (SIGTERM, Ctrl-C) the running job ends after its current batch,
'interrupted', and the next run resumes it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from hippograph.graph.errors import GraphUnavailable, LockHeld
from hippograph.graph.store.store import OwnerGone, Store
from hippograph.graph.upkeep.jobruns import JobRun
from hippograph.jobs import registry
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import Progress, RunOptions, utcnow
from hippograph.jobs.scheduler import schedule

log = logging.getLogger(__name__)
MAX_SLEEP_S = 60.0
RECONNECT_S = 5.0
# Longest single wait between jobs. Python runs a signal handler (which sets ``stop``) in the
# main thread, and only when it runs Python code: a SIGTERM the kernel handed to one of the
# engine's threads waited for the whole pause, up to a minute.
WAKE_S = 0.5


@dataclass
class Worker:
    """open_store: opens a Store (called again after the graph became unreachable).
    config: schedules and job parameters.
    on_progress: factory of a per-run progress callback (the CLI prints a bar).
    owns_store: close the store when done (False: it is borrowed, e.g. the server's own).
    """

    open_store: Callable[[], Store]
    config: JobsConfig
    on_run: Callable[[JobRun], None] | None = None
    on_progress: Callable[[str], Progress] | None = None
    owns_store: bool = True

    def __post_init__(self) -> None:
        self.stop = threading.Event()
        self._store: Store | None = None

    def run_forever(self) -> None:
        log.info("worker started")
        try:
            while not self.stop.is_set():
                try:
                    pause = self.run_due()
                except OwnerGone:
                    # Attached to the engine of a server that stopped: starting an engine of
                    # our own would keep the data directory from the server when it comes
                    # back, so this is the end (a supervisor restarts the worker).
                    raise
                except GraphUnavailable as exc:
                    log.warning("worker: graph unavailable (%s); reconnecting", exc)
                    self.close()
                    pause = RECONNECT_S
                self.pause(pause)
        finally:
            self.close()
            log.info("worker stopped")

    def pause(self, seconds: float) -> None:
        """Wait ``seconds`` or until stopped, waking every ``WAKE_S`` for signal handlers and,
        attached to a server's engine, to see that the server still runs."""
        deadline = time.monotonic() + seconds
        while not self.stop.is_set() and (left := deadline - time.monotonic()) > 0:
            self.stop.wait(min(left, WAKE_S))
            if self._store is not None and self._store.owner is not None:
                self._store.owner.check()  # OwnerGone as soon as the server stops

    def run_due(self) -> float:
        """Run every job due now; return seconds until the next is due."""
        store = self._connect()
        for due in schedule(store, self.config, utcnow()):
            if self.stop.is_set() or due.at > utcnow():
                break
            self.run_one(store, due.name)
        upcoming = schedule(store, self.config, utcnow())
        if not upcoming:
            return MAX_SLEEP_S
        seconds = (upcoming[0].at - utcnow()).total_seconds()
        return min(MAX_SLEEP_S, max(1.0, seconds))

    def run_one(self, store: Store, name: str) -> JobRun | None:
        options = RunOptions(
            trigger="schedule",
            stop=self.stop,
            on_progress=self.on_progress(name) if self.on_progress else None,
        )
        try:
            run = registry.run_job(store, name, self.config, options)
        except LockHeld as exc:
            log.info("worker: %s", exc.message)
            return None
        if self.on_run is not None:
            self.on_run(run)
        return run

    def _connect(self) -> Store:
        if self._store is None:
            self._store = self.open_store()
        return self._store

    def close(self) -> None:
        """Close the store (the worker reconnects if used again); a borrowed one is let go."""
        if self._store is not None and not self.owns_store:
            self._store = None
        if self._store is not None:
            try:
                self._store.close()
            except Exception:  # closing a dead connection may fail; it is gone either way
                log.debug("worker: closing the old store failed", exc_info=True)
            self._store = None
