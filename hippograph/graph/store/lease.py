"""The consolidation lock as a lease kept alive by a heartbeat.

Consolidation and rebuild share one graph-wide lock (a ``ConsolidationState {key: 'lock'}``
node). Its holder renews ``expires_at`` every quarter lease from a daemon thread while it
lives; a holder killed mid-run stops renewing, so the next run takes the lock over once the
lease (``HIPPOGRAPH_JOB_LOCK_LEASE_S``, 45 s by default) has run out instead of waiting out a
fixed half hour.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from hippograph.graph.errors import Conflict, HippographError, LockHeld
from hippograph.graph.model import now_iso, parse_iso, to_iso
from hippograph.graph.store.store import Store

log = logging.getLogger(__name__)

LOCK_NAME = "consolidation"
LOCK_KEY = "lock"
DEFAULT_LEASE = timedelta(seconds=45)


def new_holder(kind: str) -> str:
    """A holder name that says which process holds the lock."""
    return f"{kind}:{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def acquire(store: Store, holder: str, now: str, lease: timedelta = DEFAULT_LEASE) -> None:
    """Take the graph-wide consolidation lock for ``lease``. Raises LockHeld while another
    holder's lease runs."""
    expires = to_iso(parse_iso(now) + lease)
    params = {"key": LOCK_KEY, "holder": holder, "now": now, "expires_at": expires}
    try:
        row = store.write("consolidation/lock_acquire", **params)[0]
    except Conflict:
        # Both runs created the lock node at once; the node exists now, so this decides.
        row = store.write("consolidation/lock_acquire", **params)[0]
    if not row["acquired"]:
        raise LockHeld(LOCK_NAME, str(row["holder"]), str(row["since"]))


def renew(store: Store, holder: str, lease: timedelta = DEFAULT_LEASE) -> bool:
    """Push the lease ``lease`` past now; False when ``holder`` no longer holds the lock."""
    expires = to_iso(parse_iso(now_iso()) + lease)
    row = store.write("consolidation/lock_renew", key=LOCK_KEY, holder=holder, expires_at=expires)
    return int(row[0]["renewed"]) > 0


@contextmanager
def held(store: Store, holder: str, now: str, lease: timedelta = DEFAULT_LEASE) -> Iterator[None]:
    """Hold the consolidation lock for the ``with`` block, renewing it every quarter lease."""
    acquire(store, holder, now, lease)
    done = threading.Event()

    def beat() -> None:
        while not done.wait(lease.total_seconds() / 4):
            try:
                if not renew(store, holder, lease):
                    log.warning("consolidation lock: %s no longer holds it", holder)
                    return
            except HippographError:
                log.warning("consolidation lock: renewal failed; retrying", exc_info=True)

    thread = threading.Thread(target=beat, name="consolidation-lease", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(timeout=5)
        store.write("consolidation/lock_release", key=LOCK_KEY, holder=holder)
