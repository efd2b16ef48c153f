"""The maintenance jobs inside another process (``serve``): the worker on a thread of its own,
over that process's store.

``serve`` runs them by default (``HIPPOGRAPH_SERVE_JOBS``, ``serve --no-jobs``), so that a
single process keeps ``core``, ``profile``, PageRank and the rest current. A deployment that
runs ``hippograph worker`` separately turns them off here (each job's lock keeps two runs of a
job apart, but a worker beside a server running them mostly finds them locked).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from hippograph.graph.store.store import Store
from hippograph.graph.upkeep.jobruns import JobRun
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.worker import Worker

log = logging.getLogger(__name__)


class BackgroundJobs:
    """A ``Worker`` over a borrowed ``store``, on a daemon thread, until ``stop``."""

    def __init__(
        self, store: Store, config: JobsConfig, *, on_run: Callable[[JobRun], None] | None = None
    ) -> None:
        """on_run: told of each finished run (the server's metrics)."""
        self.worker = Worker(
            open_store=lambda: store, config=config, on_run=on_run, owns_store=False
        )
        self._thread = threading.Thread(target=self._run, name="jobs", daemon=True)

    def start(self) -> BackgroundJobs:
        self._thread.start()
        return self

    def stop(self, timeout_s: float) -> bool:
        """Ask the running job to end after its current batch; wait up to ``timeout_s``.
        True when the thread ended (the store may then close under nothing)."""
        self.worker.stop.set()
        self._thread.join(timeout_s)
        return not self._thread.is_alive()

    def _run(self) -> None:
        try:
            self.worker.run_forever()
        except Exception:  # noqa: BLE001 - the server keeps serving without its jobs
            log.exception("the in-process jobs stopped; run `hippograph worker` to keep them")
