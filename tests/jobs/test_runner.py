"""The job runner: JobRun records, the lock and its lease, progress, interruption."""

from __future__ import annotations

import threading
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from hippograph.graph.errors import LockHeld
from hippograph.graph.store.store import Store
from hippograph.graph.upkeep import jobruns
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import Execution, Job, JobContext, RunOptions

T0 = datetime(2025, 3, 1, tzinfo=UTC)
LEASE = timedelta(seconds=60)


def counting_job(keys: list[str], seen: list[str]) -> Job:
    def job(ctx: JobContext) -> None:
        todo = [k for k in keys if ctx.pending(k)]
        done = len(keys) - len(todo)
        for key in todo:
            seen.append(key)
            ctx.counts["items"] += 1
            done += 1
            ctx.checkpoint(key, done, len(keys))

    return job


def test_lock_excludes_a_second_holder_until_released(store: Store) -> None:
    name = f"test-lock-{uuid.uuid4().hex[:8]}"
    assert jobruns.acquire_lock(store, name, "a", now=T0, lease=LEASE) is None
    with pytest.raises(LockHeld) as caught:
        jobruns.acquire_lock(store, name, "b", now=T0 + timedelta(seconds=5), lease=LEASE)
    assert caught.value.holder == "a"
    assert jobruns.lock_holder(store, name) is not None
    assert jobruns.release_lock(store, name, "a", now=T0)
    assert jobruns.lock_holder(store, name) is None
    jobruns.acquire_lock(store, name, "b", now=T0, lease=LEASE)
    jobruns.release_lock(store, name, "b", now=T0)


def test_an_expired_lease_is_taken_over_and_the_dead_run_abandoned(
    store: Store, namespace: str
) -> None:
    name = f"test-dead-{uuid.uuid4().hex[:8]}"
    jobruns.acquire_lock(store, name, "dead", now=T0, lease=LEASE)
    orphan = jobruns.start_run(
        store, name, "dead", trigger="test", scope=namespace, now=T0, as_of="x", cursor="k1"
    )
    # Still within the lease: held.
    with pytest.raises(LockHeld):
        jobruns.acquire_lock(store, name, "next", now=T0 + timedelta(seconds=59), lease=LEASE)
    # The holder stopped renewing: the lease runs out and the next worker takes over.
    later = T0 + timedelta(seconds=61)
    assert jobruns.acquire_lock(store, name, "next", now=later, lease=LEASE) == "dead"
    assert jobruns.abandon_orphans(store, name, "next", now=later) == 1
    run = jobruns.get_run(store, orphan.id)
    assert run is not None and run.status == "abandoned" and run.cursor == "k1"
    # The dead holder, were it to wake up, cannot renew or release someone else's lock.
    assert not jobruns.renew_lock(store, name, "dead", now=later, lease=LEASE)
    assert not jobruns.release_lock(store, name, "dead", now=later)
    jobruns.release_lock(store, name, "next", now=later)


def test_heartbeat_renews_the_lease(store: Store) -> None:
    name = f"test-beat-{uuid.uuid4().hex[:8]}"
    jobruns.acquire_lock(store, name, "a", now=T0, lease=LEASE)
    assert jobruns.renew_lock(store, name, "a", now=T0 + timedelta(seconds=50), lease=LEASE)
    with pytest.raises(LockHeld):  # 50 + 60 > 100
        jobruns.acquire_lock(store, name, "b", now=T0 + timedelta(seconds=100), lease=LEASE)
    jobruns.release_lock(store, name, "a", now=T0)


def test_a_run_is_recorded_with_counts_and_progress(store: Store, namespace: str) -> None:
    name = f"test-run-{uuid.uuid4().hex[:8]}"
    seen: list[str] = []
    progress: list[tuple[int, int]] = []
    options = RunOptions(namespace=namespace, on_progress=lambda d, t: progress.append((d, t)))
    execution = Execution(store, name, counting_job(["a", "b", "c"], seen), JobsConfig(), options)
    execution.begin()
    with pytest.raises(LockHeld):  # the job is running: a second instance is refused
        Execution(store, name, lambda ctx: None, JobsConfig(), options).begin()
    run = execution.execute()
    assert (run.status, run.done, run.total, dict(run.counts)) == ("succeeded", 3, 3, {"items": 3})
    assert run.ended_at is not None and run.error is None and run.scope == namespace
    assert progress == [(1, 3), (2, 3), (3, 3)]
    assert jobruns.lock_holder(store, name) is None
    assert [r.id for r in jobruns.list_runs(store, name)] == [run.id]


def test_a_failed_run_is_resumed_from_its_cursor_with_its_clock(
    store: Store, namespace: str
) -> None:
    name = f"test-resume-{uuid.uuid4().hex[:8]}"
    keys = ["k1", "k2", "k3", "k4"]
    seen: list[str] = []

    def boom(batch: int) -> None:
        if batch == 2:
            raise RuntimeError("killed")

    first = Execution(
        store,
        name,
        counting_job(keys, seen),
        JobsConfig(),
        RunOptions(namespace=namespace, as_of=T0, after_batch=boom),
    )
    first.begin()
    failed = first.execute()
    assert failed.status == "failed" and "killed" in (failed.error or "")
    assert failed.cursor == "k2" and seen == ["k1", "k2"]
    assert jobruns.lock_holder(store, name) is None  # released despite the failure

    again = Execution(
        store, name, counting_job(keys, seen), JobsConfig(), RunOptions(namespace=namespace)
    )
    again.begin()
    assert again.ctx is not None and again.ctx.as_of == T0
    done = again.execute()
    assert done.status == "succeeded" and done.resumed_from == failed.id
    assert seen == keys  # k1 and k2 were not redone


def test_stop_interrupts_after_the_current_batch(store: Store, namespace: str) -> None:
    name = f"test-stop-{uuid.uuid4().hex[:8]}"
    stop = threading.Event()
    seen: list[str] = []

    def job(ctx: JobContext) -> None:
        for i, key in enumerate(["a", "b", "c"]):
            seen.append(key)
            if i == 0:
                stop.set()
            ctx.checkpoint(key, i + 1, 3)

    execution = Execution(
        store, name, job, JobsConfig(), RunOptions(namespace=namespace, stop=stop)
    )
    execution.begin()
    run = execution.execute()
    assert run.status == "interrupted" and run.cursor == "a" and seen == ["a"]
