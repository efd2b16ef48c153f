"""Run one job: take its lock, record a JobRun, heartbeat, report progress, resume, release.

A job is a function ``job(ctx: JobContext) -> None``. It reads what it needs, then writes in
batches, each batch its own transaction, in a fixed key order, calling
``ctx.checkpoint(last_key, done, total)`` after each. Every write is idempotent for a given
``ctx.as_of`` (the run's clock), so a run killed half-way leaves each batch either applied or
not; the next run of the job finds the unfinished JobRun, reuses its ``as_of`` and skips the
keys up to its cursor, and the graph ends as if the first run had never stopped.

Lifecycle of a run::

    acquire JobLock (LockHeld if another live holder has it)
    -> mark runs of dead holders 'abandoned' -> find an unfinished run to resume
    -> create JobRun 'running' -> job(ctx) with a heartbeat thread renewing the lease
    -> JobRun 'succeeded' | 'failed' | 'interrupted' -> release the lock
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TypeVar

from hippograph.graph import clock
from hippograph.graph.errors import Conflict, GraphUnavailable, HippographError
from hippograph.graph.model import parse_iso, to_iso
from hippograph.graph.store import lease
from hippograph.graph.store.store import Store
from hippograph.graph.upkeep import jobruns
from hippograph.graph.upkeep.jobruns import JobRun
from hippograph.graph.write import rebuild
from hippograph.jobs.config import DEFAULT_JOBS_CONFIG, JobsConfig

log = logging.getLogger(__name__)
T = TypeVar("T")

Job = Callable[["JobContext"], None]
Progress = Callable[[int, int], None]


class JobInterrupted(Exception):
    """The worker was asked to stop; the run ends 'interrupted' and the next one resumes it."""


class LockLost(Conflict):
    """Another process took the job's lock over (our lease expired or it forced the lock)."""

    code = "LOCK_LOST"


def utcnow() -> datetime:
    """The service clock (``graph.clock``): a test or a benchmark that moves it moves the jobs."""
    return clock.now()


def holder_id() -> str:
    """hostname:pid:random, unique per run even within one process."""
    return lease.new_holder()


@dataclass(frozen=True, kw_only=True)
class RunOptions:
    """How to run a job.

    trigger: who asked ('schedule', 'cli', 'api'), recorded on the JobRun.
    force: take the lock over from a live holder (it stops at its next heartbeat).
    namespace: restrict the job to one namespace (None: all).
    as_of: the run's clock; defaults to now, or to the clock of the unfinished run it resumes.
    after_batch: called with the batch number after each committed batch (fault injection in
        tests, throttling in production); an exception it raises fails the run there.
    on_progress: called with (done, total) after each batch.
    stop: when set, the run stops after its current batch, 'interrupted'.
    """

    trigger: str = "cli"
    force: bool = False
    namespace: str | None = None
    as_of: datetime | None = None
    after_batch: Callable[[int], None] | None = None
    on_progress: Progress | None = None
    stop: threading.Event | None = None


@dataclass(kw_only=True)
class JobContext:
    """What a job sees: the store, its config, the run's clock and where to resume."""

    store: Store
    config: JobsConfig
    as_of: datetime
    namespace: str | None
    cursor: str | None
    counts: Counter[str] = field(default_factory=Counter)
    done: int = 0
    total: int = 0
    _execution: Execution | None = None
    _rebuilding: set[str] | None = None

    @property
    def as_of_iso(self) -> str:
        return to_iso(self.as_of)

    @property
    def batch_size(self) -> int:
        return self.config.jobs.batch_size

    def progress(self, done: int, total: int) -> None:
        """Report progress without a checkpoint (e.g. while reading)."""
        self.done, self.total = done, total
        if self._execution is not None:
            self._execution.report(checkpoint=False)

    def checkpoint(self, cursor: str | None, done: int, total: int) -> None:
        """A batch committed: persist the cursor and progress, then honour stop and faults."""
        self.cursor = cursor
        self.done, self.total = done, total
        if self._execution is not None:
            self._execution.report(checkpoint=True)

    def pending(self, key: str) -> bool:
        """False for keys a resumed run already wrote (at or before the cursor)."""
        return self.cursor is None or key > self.cursor

    def rebuilding(self, namespace: str) -> bool:
        """Whether ``namespace`` has a rebuild that has wiped it and not finished its replay
        (running, or died and waiting for ``rebuild.resume``), read once a run. A job that
        derives a namespace-wide view (clusters, the core block, the profile) skips it, counted
        in ``skipped_rebuilding``: from part of its memories the view would lose the rest until
        the next run."""
        if self._rebuilding is None:
            self._rebuilding = {u.namespace for u in rebuild.unfinished(self.store)}
        if namespace in self._rebuilding:
            self.counts["skipped_rebuilding"] += 1
            return True
        return False


class Execution:
    """One run of one job; ``begin`` (lock + JobRun) then ``execute`` (the work)."""

    def __init__(
        self,
        store: Store,
        name: str,
        job: Job,
        config: JobsConfig = DEFAULT_JOBS_CONFIG,
        options: RunOptions = RunOptions(),
    ) -> None:
        self.store = store
        self.name = name
        self.job = job
        self.config = config
        self.options = options
        self.holder = holder_id()
        self.run: JobRun | None = None
        self.ctx: JobContext | None = None
        self._batches = 0
        # Renews the job's lease every quarter lease (at most 30 s) while the job runs.
        self._beat = lease.Heartbeat(
            store,
            lease.job_lock(name),
            self.holder,
            self.config.lease,
            every=min(30.0, self.config.jobs.lock_lease_s / 4),
            now=utcnow,
        )
        self._last_log = 0.0

    def begin(self) -> JobRun:
        """Take the lock and record the run; raises LockHeld when another holder is live."""
        now = utcnow()
        previous = jobruns.acquire_lock(
            self.store,
            self.name,
            self.holder,
            now=now,
            lease=self.config.lease,
            force=self.options.force,
        )
        try:
            if previous:
                log.warning("%s: took the lock over from %s", self.name, previous)
            jobruns.abandon_orphans(self.store, self.name, self.holder, now=now)
            scope = self.options.namespace or jobruns.ALL_SCOPE
            as_of, cursor, resumed = self._resume_point(scope, now)
            self.run = jobruns.start_run(
                self.store,
                self.name,
                self.holder,
                trigger=self.options.trigger,
                scope=scope,
                now=now,
                as_of=as_of,
                cursor=cursor,
                resumed_from=resumed,
            )
        except BaseException:
            jobruns.release_lock(self.store, self.name, self.holder, now=utcnow())
            raise
        self.ctx = JobContext(
            store=self.store,
            config=self.config,
            as_of=parse_iso(as_of),
            namespace=self.options.namespace,
            cursor=cursor,
            _execution=self,
        )
        if resumed:
            log.info("%s: resuming run %s after %s (as of %s)", self.name, resumed, cursor, as_of)
        return self.run

    def _resume_point(self, scope: str, now: datetime) -> tuple[str, str | None, str | None]:
        wanted = to_iso(self.options.as_of) if self.options.as_of else None
        last = jobruns.latest_run(self.store, self.name, scope)
        if (
            last is not None
            and last.status in jobruns.UNFINISHED
            and last.cursor is not None
            and wanted in (None, last.as_of)
        ):
            return last.as_of, last.cursor, last.id
        return wanted or to_iso(now), None, None

    def execute(self) -> JobRun:
        """Run the job to the end; returns the finished JobRun (never raises for job errors,
        which end the run 'failed'; KeyboardInterrupt ends it 'interrupted' and propagates)."""
        assert self.run is not None and self.ctx is not None, "call begin() first"
        self._beat.start()
        status, error = "succeeded", None
        started = time.perf_counter()
        try:
            self.job(self.ctx)
        except JobInterrupted:
            status, error = "interrupted", "stopped on request; the next run resumes it"
        except GraphUnavailable as exc:
            # The service is stopping (its store refuses new statements) or the graph went
            # away: the run is interrupted, not failed, and the next run resumes it.
            status, error = "interrupted", f"GraphUnavailable: {exc.message}"
            log.warning("%s: run %s interrupted: %s", self.name, self.run.id, exc.message)
        except (Exception, KeyboardInterrupt) as exc:
            status = "interrupted" if isinstance(exc, KeyboardInterrupt) else "failed"
            error = f"{type(exc).__name__}: {exc}"
            if status == "failed":
                log.exception("%s: run %s failed", self.name, self.run.id)
            else:
                self._close(status, error)
                raise
        self._close(status, error)
        log.info(
            "%s: %s in %.1fs %s", self.name, status, time.perf_counter() - started, self.ctx.counts
        )
        return jobruns.get_run(self.store, self.run.id) or self.run

    def _close(self, status: str, error: str | None) -> None:
        assert self.run is not None and self.ctx is not None
        self._beat.stop()
        now = utcnow()
        try:
            cursor = None if status == "succeeded" else self.ctx.cursor
            jobruns.finish_run(
                self.store,
                self.run.id,
                status=status,
                now=now,
                done=self.ctx.done,
                total=self.ctx.total,
                cursor=cursor,
                counts=self.ctx.counts,
                error=error,
            )
            retention = timedelta(days=self.config.jobs.run_retention_days)
            jobruns.prune_runs(self.store, self.name, before=now - retention)
        except GraphUnavailable as exc:
            # The service is stopping (or the graph went away): the run stays RUNNING, its
            # lease lapses, and the next start resumes it from its last batch. One line, not a
            # traceback: this is how a stop in the middle of a job ends.
            log.warning(
                "%s: the end of run %s is not recorded: %s", self.name, self.run.id, exc.message
            )
        except HippographError:
            log.exception("%s: could not record the end of run %s", self.name, self.run.id)
        finally:
            try:
                jobruns.release_lock(self.store, self.name, self.holder, now=utcnow())
            except GraphUnavailable as exc:
                log.warning("%s: the lock is not released (its lease will expire): %s",
                            self.name, exc.message)  # fmt: skip
            except HippographError:
                log.exception("%s: could not release the lock; its lease will expire", self.name)

    def report(self, *, checkpoint: bool) -> None:
        """Progress from the job: persist (on checkpoints), log, callback, stop, faults."""
        assert self.run is not None and self.ctx is not None
        ctx = self.ctx
        if checkpoint:
            jobruns.record_progress(
                self.store,
                self.run.id,
                now=utcnow(),
                done=ctx.done,
                total=ctx.total,
                cursor=ctx.cursor,
                counts=ctx.counts,
            )
        if self.options.on_progress is not None:
            self.options.on_progress(ctx.done, ctx.total)
        if time.monotonic() - self._last_log > 5.0:
            self._last_log = time.monotonic()
            log.info("%s: %d/%d %s", self.name, ctx.done, ctx.total, dict(ctx.counts))
        if not checkpoint:
            return
        self._batches += 1
        if self._beat.lost.is_set():
            raise LockLost(f"{self.name}: another worker took the lock over; stopping")
        if self.options.stop is not None and self.options.stop.is_set():
            raise JobInterrupted(self.name)
        if self.options.after_batch is not None:
            self.options.after_batch(self._batches)


def batches(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    """Consecutive slices of ``items`` of at most ``size``."""
    for start in range(0, len(items), size):
        yield items[start : start + size]
