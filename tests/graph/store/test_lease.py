"""The consolidation lock is a lease: a heartbeat keeps it while its holder lives, and a holder
that stops renewing (killed) loses it once the lease runs out, not half an hour later."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from hippograph.graph.errors import LockHeld
from hippograph.graph.model import now_iso
from hippograph.graph.runtime import Runtime
from hippograph.graph.store import lease

SHORT = timedelta(seconds=1.2)


def test_a_holder_that_stops_renewing_is_taken_over_after_its_lease(runtime: Runtime) -> None:
    store = runtime.store
    lease.acquire(store, "dead", now_iso(), SHORT)  # acquired, then never renewed nor released
    with pytest.raises(LockHeld) as held:
        lease.acquire(store, "next", now_iso(), SHORT)
    assert held.value.holder == "dead"
    time.sleep(SHORT.total_seconds() + 0.3)
    lease.acquire(store, "next", now_iso(), SHORT)
    assert not lease.renew(store, "dead", SHORT)  # the dead holder's renewal finds nothing
    store.write("consolidation/lock_release", key=lease.LOCK_KEY, holder="next")


def test_the_heartbeat_keeps_a_live_holder_past_its_lease(runtime: Runtime) -> None:
    store = runtime.store
    with lease.held(store, "alive", now_iso(), SHORT):
        time.sleep(SHORT.total_seconds() * 2.5)  # two leases: renewed every quarter lease
        with pytest.raises(LockHeld):
            lease.acquire(store, "other", now_iso(), SHORT)
    lease.acquire(store, "other", now_iso(), SHORT)  # released on leaving the block
    store.write("consolidation/lock_release", key=lease.LOCK_KEY, holder="other")
