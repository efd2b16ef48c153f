"""Leases: a lock node whose holder keeps it by pushing its ``expires_at`` on from a heartbeat.

A holder killed mid-run stops renewing, so the next one takes the lock over once the lease
(``HIPPOGRAPH_JOB_LOCK_LEASE_S``, 45 s by default) has run out instead of waiting out a fixed
half hour. One implementation serves every lock; each ``Lock`` names its node and statements,
whose stored shapes predate this module and are kept as stores hold them:

- ``job_lock(name)``: a ``JobLock {name}`` per job (``graph.upkeep.jobruns``, ``jobs.runner``);
  it can be forced from a live holder, who notices at its next heartbeat.
- ``CONSOLIDATION``: the graph-wide ``ConsolidationState {key: 'lock'}`` that consolidation and
  rebuild share (``acquire``, ``renew`` and ``held`` below).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from hippograph.graph.errors import Conflict, HippographError, LockHeld
from hippograph.graph.model import now_iso, parse_iso, to_iso
from hippograph.graph.store.store import Store

log = logging.getLogger(__name__)

DEFAULT_LEASE = timedelta(seconds=45)


def service_now() -> datetime:
    """The service clock (``graph.clock``, read through ``model``: store/ imports nothing
    above it)."""
    return parse_iso(now_iso())


@dataclass(frozen=True)
class Lock:
    """A stored lock: its name (in LockHeld and the logs), the parameters that find its node
    and the statements that take, renew and release it."""

    name: str
    node: Mapping[str, str]
    acquire: str
    renew: str
    release: str


LOCK_NAME = "consolidation"
LOCK_KEY = "lock"
CONSOLIDATION = Lock(
    name=LOCK_NAME,
    node={"key": LOCK_KEY},
    acquire="consolidation/lock_acquire",
    renew="consolidation/lock_renew",
    release="consolidation/lock_release",
)


def job_lock(name: str) -> Lock:
    """The lock of the job ``name``."""
    return Lock(
        name=name,
        node={"job": name},
        acquire="job/lock_acquire",
        renew="job/lock_heartbeat",
        release="job/lock_release",
    )


def new_holder(kind: str | None = None) -> str:
    """A holder name that says which process holds the lock ([kind:]host:pid:random)."""
    unique = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
    return f"{kind}:{unique}" if kind else unique


def take(
    store: Store,
    lock: Lock,
    holder: str,
    *,
    now: datetime,
    lease: timedelta,
    force: bool = False,
) -> str | None:
    """Take ``lock`` for ``holder`` until ``now + lease``; return the holder it was taken over
    from (None if it was free or already ``holder``'s).

    The lock is free when nobody holds it, its lease has run out, or ``holder`` has it already.
    force: take it even from a live holder (job locks only).
    Raises LockHeld while another holder's lease runs.
    """
    params = {
        **lock.node,
        "holder": holder,
        "now": to_iso(now),
        "expires_at": to_iso(now + lease),
        "force": force,
    }
    try:
        row = store.write(lock.acquire, **params)[0]
    except Conflict:
        # Both created the lock node at once; the node exists now, so this decides.
        row = store.write(lock.acquire, **params)[0]
    if not row["acquired"]:
        raise LockHeld(lock.name, str(row["holder"]), str(row["since"]))
    previous = row.get("previous")
    return str(previous) if previous and previous != holder else None


def extend(store: Store, lock: Lock, holder: str, *, now: datetime, lease: timedelta) -> bool:
    """Push the lease to ``now + lease``; False when ``holder`` no longer holds ``lock``."""
    params = {**lock.node, "holder": holder, "now": to_iso(now), "expires_at": to_iso(now + lease)}
    return int(store.write(lock.renew, **params)[0]["renewed"]) > 0


def give_up(store: Store, lock: Lock, holder: str, *, now: datetime) -> bool:
    """Release ``lock`` if ``holder`` still has it."""
    row = store.write(lock.release, **lock.node, holder=holder, now=to_iso(now))[0]
    return int(row["released"]) > 0


class Heartbeat:
    """Renews ``holder``'s lease on ``lock`` every ``every`` seconds from a daemon thread until
    stopped; ``lost`` is set (and the beat ends) once another holder has taken the lock."""

    def __init__(
        self,
        store: Store,
        lock: Lock,
        holder: str,
        lease: timedelta,
        *,
        every: float,
        now: Callable[[], datetime] = service_now,
    ) -> None:
        self.store, self.lock, self.holder, self.lease = store, lock, holder, lease
        self.every, self.now = every, now
        self.lost = threading.Event()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._beat, name=f"{lock.name}-lease", daemon=True)

    def start(self) -> Heartbeat:
        self._thread.start()
        return self

    def stop(self, wait: float | None = None) -> None:
        """Stop renewing; ``wait``: seconds to wait for the thread to end (None: don't)."""
        self._stopped.set()
        if wait is not None and self._thread.is_alive():
            self._thread.join(timeout=wait)

    def _beat(self) -> None:
        while not self._stopped.wait(self.every):
            try:
                kept = extend(self.store, self.lock, self.holder, now=self.now(), lease=self.lease)
            except HippographError:
                log.warning("%s: lease renewal failed; retrying", self.lock.name, exc_info=True)
                continue
            if not kept:
                log.warning("%s: %s no longer holds the lock", self.lock.name, self.holder)
                self.lost.set()
                return


# --- the consolidation lock -------------------------------------------------------------------


def acquire(store: Store, holder: str, now: str, lease: timedelta = DEFAULT_LEASE) -> None:
    """Take the graph-wide consolidation lock for ``lease``. Raises LockHeld while another
    holder's lease runs."""
    take(store, CONSOLIDATION, holder, now=parse_iso(now), lease=lease)


def renew(store: Store, holder: str, lease: timedelta = DEFAULT_LEASE) -> bool:
    """Push the lease ``lease`` past now; False when ``holder`` no longer holds the lock."""
    return extend(store, CONSOLIDATION, holder, now=service_now(), lease=lease)


@contextmanager
def held(store: Store, holder: str, now: str, lease: timedelta = DEFAULT_LEASE) -> Iterator[None]:
    """Hold the consolidation lock for the ``with`` block, renewing it every quarter lease."""
    acquire(store, holder, now, lease)
    beat = Heartbeat(store, CONSOLIDATION, holder, lease, every=lease.total_seconds() / 4).start()
    try:
        yield
    finally:
        beat.stop(wait=5)
        give_up(store, CONSOLIDATION, holder, now=service_now())
