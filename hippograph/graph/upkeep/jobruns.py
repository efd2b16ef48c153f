"""Job bookkeeping in the graph: ``JobLock`` leases and ``JobRun`` records.

A ``JobLock {name}`` node says which process runs a job. Its holder renews a lease
(``expires_at``) while it works; a holder that died stops renewing, and once the lease has
expired the next worker takes the lock over and marks the dead holder's runs ``abandoned``.

A ``JobRun`` node records one run: start, end, status, counts, error, progress and the
``cursor`` the job reached. A run that did not finish keeps its clock (``as_of``) and cursor, so
the next run of the same job and scope resumes it instead of starting over.

Statuses: running, succeeded, failed, interrupted (stopped on request), abandoned (its holder
died).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import to_iso
from hippograph.graph.store import lease as lease_
from hippograph.graph.store.store import Store

STATUSES = ("running", "succeeded", "failed", "interrupted", "abandoned")
UNFINISHED = ("failed", "interrupted", "abandoned")
ALL_SCOPE = "*"  # a run over every namespace


@dataclass(frozen=True, kw_only=True)
class JobRun:
    id: str
    name: str
    status: str
    holder: str
    trigger: str
    scope: str
    started_at: str
    as_of: str
    ended_at: str | None = None
    cursor: str | None = None
    resumed_from: str | None = None
    done: int = 0
    total: int = 0
    counts: Mapping[str, int] = field(default_factory=dict)
    error: str | None = None


def to_run(props: Mapping[str, Any]) -> JobRun:
    return JobRun(
        id=props["id"],
        name=props["name"],
        status=props["status"],
        holder=props.get("holder") or "",
        trigger=props.get("trigger") or "",
        scope=props.get("scope") or ALL_SCOPE,
        started_at=props["started_at"],
        as_of=props.get("as_of") or props["started_at"],
        ended_at=props.get("ended_at"),
        cursor=props.get("cursor"),
        resumed_from=props.get("resumed_from"),
        done=int(props.get("done") or 0),
        total=int(props.get("total") or 0),
        counts=json.loads(props.get("counts") or "{}"),
        error=props.get("error"),
    )


def acquire_lock(
    store: Store, name: str, holder: str, *, now: datetime, lease: timedelta, force: bool = False
) -> str | None:
    """Take the lock ``name`` for ``holder``; return the previous holder (None if it was free).
    The lease and its rules: ``graph.store.lease.take``."""
    return lease_.take(store, lease_.job_lock(name), holder, now=now, lease=lease, force=force)


def renew_lock(store: Store, name: str, holder: str, *, now: datetime, lease: timedelta) -> bool:
    """Extend the lease; False when ``holder`` no longer holds the lock (it was taken over)."""
    return lease_.extend(store, lease_.job_lock(name), holder, now=now, lease=lease)


def release_lock(store: Store, name: str, holder: str, *, now: datetime) -> bool:
    """Give the lock up if ``holder`` still has it."""
    return lease_.give_up(store, lease_.job_lock(name), holder, now=now)


def lock_holder(store: Store, name: str) -> tuple[str, str, str] | None:
    """(holder, since, expires_at) of a held lock, or None."""
    rows = store.read("job/lock_get", job=name)
    if not rows or not rows[0]["holder"]:
        return None
    r = rows[0]
    return str(r["holder"]), str(r["since"]), str(r["expires_at"])


def abandon_orphans(store: Store, name: str, holder: str, *, now: datetime) -> int:
    """Mark runs of ``name`` still 'running' under another holder as abandoned."""
    row = store.write("job/run_abandon", job=name, holder=holder, now=to_iso(now))[0]
    return int(row["abandoned"])


def start_run(
    store: Store,
    name: str,
    holder: str,
    *,
    trigger: str,
    scope: str,
    now: datetime,
    as_of: str,
    cursor: str | None = None,
    resumed_from: str | None = None,
) -> JobRun:
    run_id = str(uuid.uuid4())
    store.write(
        "job/run_start",
        id=run_id,
        job=name,
        holder=holder,
        trigger=trigger,
        scope=scope,
        now=to_iso(now),
        as_of=as_of,
        cursor=cursor,
        resumed_from=resumed_from,
    )
    return JobRun(
        id=run_id,
        name=name,
        status="running",
        holder=holder,
        trigger=trigger,
        scope=scope,
        started_at=to_iso(now),
        as_of=as_of,
        cursor=cursor,
        resumed_from=resumed_from,
    )


def record_progress(
    store: Store,
    run_id: str,
    *,
    now: datetime,
    done: int,
    total: int,
    cursor: str | None,
    counts: Mapping[str, int],
) -> None:
    store.write(
        "job/run_progress",
        id=run_id,
        now=to_iso(now),
        done=done,
        total=total,
        cursor=cursor,
        counts=json.dumps(dict(counts), sort_keys=True),
    )


def finish_run(
    store: Store,
    run_id: str,
    *,
    status: str,
    now: datetime,
    done: int,
    total: int,
    cursor: str | None,
    counts: Mapping[str, int],
    error: str | None = None,
) -> None:
    if status not in STATUSES or status == "running":
        raise InvalidInput("status", f"a finished run cannot be {status!r}")
    store.write(
        "job/run_finish",
        id=run_id,
        status=status,
        now=to_iso(now),
        done=done,
        total=total,
        cursor=cursor,
        counts=json.dumps(dict(counts), sort_keys=True),
        error=error[:2000] if error else None,
    )


def latest_run(store: Store, name: str, scope: str) -> JobRun | None:
    rows = store.read("job/run_latest", job=name, scope=scope)
    return to_run(rows[0]["run"]) if rows else None


def list_runs(store: Store, name: str | None = None, first: int = 20) -> list[JobRun]:
    """Most recent runs first, of one job or of all."""
    if not 1 <= first <= 500:
        raise InvalidInput("first", f"{first} is outside 1..500", limit=500)
    rows = store.read("job/run_list", job=name, limit=first)
    return [to_run(r["run"]) for r in rows]


def get_run(store: Store, run_id: str) -> JobRun | None:
    rows = store.read("job/run_get", id=run_id)
    return to_run(rows[0]["run"]) if rows else None


def prune_runs(store: Store, name: str, *, before: datetime, batch: int = 1000) -> int:
    """Delete finished runs of ``name`` started before ``before``; returns how many."""
    total = 0
    while True:
        row = store.write("job/run_prune", job=name, before=to_iso(before), limit=batch)[0]
        total += int(row["pruned"])
        if int(row["pruned"]) < batch:
            return total
