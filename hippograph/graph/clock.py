"""The service clock: the one "now" every rule of the service reads.

Decay, speculative expiry, archiving, the recency boost, job runs and every stamp a write
leaves (``recorded_at``, ``updated_at``, ``superseded_at``...) ask this module. It follows the
wall clock unless a test or a benchmark sets it: :func:`set_now` pins it (``None`` lets it
follow the wall clock again), :func:`advance` moves it, and :func:`frozen` pins it for a block.

The setting is process-wide, not per context: a recall answers on the engine's threads and an
API request on the server's, and both must see the clock the test set. One exception is per
context: :func:`replaying` sets the clock for the current thread's block only, so that a rebuild
replays each logged write at the time it was made while every other request of the process
keeps the service clock. Nothing here reads the environment.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, datetime, timedelta

_lock = threading.Lock()
_pinned: datetime | None = None
_replayed: ContextVar[datetime | None] = ContextVar("hippograph_clock_replayed", default=None)


def now() -> datetime:
    """The service's current instant, timezone-aware UTC (a replay's, in its context)."""
    replayed = _replayed.get()
    if replayed is not None:
        return replayed
    pinned = _pinned
    return pinned if pinned is not None else datetime.now(UTC)


def set_now(moment: datetime | None) -> None:
    """Pin the clock at ``moment`` (naive means UTC); ``None`` follows the wall clock again."""
    global _pinned
    with _lock:
        _pinned = None if moment is None else _utc(moment)


def _utc(moment: datetime) -> datetime:
    """``moment`` in UTC (naive means UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def advance(delta: timedelta) -> datetime:
    """Move the clock by ``delta`` (pinning it where it stands first); the new instant."""
    with _lock:
        moved = now() + delta
    set_now(moved)
    return moved


@contextmanager
def frozen(moment: datetime) -> Iterator[datetime]:
    """Pin the clock at ``moment`` for the block, then put back what was there."""
    before = _pinned
    set_now(moment)
    try:
        yield now()
    finally:
        set_now(before)


@contextmanager
def replaying(moment: datetime) -> Iterator[datetime]:
    """The clock at ``moment`` (naive means UTC) for this context's block only: what a write
    replayed from the log stamps is the time of the write it replays. Other threads, and
    requests served meanwhile, keep the service clock."""
    token = _replayed.set(_utc(moment))
    try:
        yield now()
    finally:
        _replayed.reset(token)
