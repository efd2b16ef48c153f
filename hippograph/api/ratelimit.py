"""An optional request rate per API key (``HIPPOGRAPH_RATE_LIMIT_PER_MINUTE``; 0, the default,
turns it off).

A token bucket per key id: it refills at the per-minute rate and holds at most ten seconds'
worth (at least one request), so a client may burst briefly but not sustain more than its rate.
Every surface that authenticates a key counts against it: each GraphQL request (whatever it
holds) and each MCP tool call over HTTP. Open mode (no keys, loopback) is one caller, ``open``.
A refused request ran nothing: ``RATE_LIMITED`` with the seconds to wait, and over HTTP status
429 with ``Retry-After``. Buckets live in the process: with several server processes behind one
address each counts its own share.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from hippograph.graph.errors import RateLimited

BURST_S = 10.0
MAX_KEYS = 100_000  # buckets kept; the idle ones (full again) are dropped first


class RateLimiter:
    """Token buckets keyed by API key id (thread-safe)."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self._rate = per_minute / 60.0
        self._capacity = max(1.0, self._rate * BURST_S)
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key id -> (tokens, at)
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return self.per_minute > 0

    def admit(self, key_id: str) -> None:
        """Take one request from ``key_id``'s bucket; raise RateLimited when it is empty."""
        if not self.enabled:
            return
        now = self._clock()
        with self._lock:
            tokens, at = self._buckets.get(key_id, (self._capacity, now))
            tokens = min(self._capacity, tokens + (now - at) * self._rate)
            if tokens < 1.0:
                self._buckets[key_id] = (tokens, now)
                wait = math.ceil((1.0 - tokens) / self._rate)
                raise RateLimited(key_id, self.per_minute, wait)
            self._buckets[key_id] = (tokens - 1.0, now)
            if len(self._buckets) > MAX_KEYS:
                self._drop_idle(now)

    def _drop_idle(self, now: float) -> None:
        full = [
            k for k, (t, at) in self._buckets.items()
            if t + (now - at) * self._rate >= self._capacity
        ]  # fmt: skip
        for key in full:
            del self._buckets[key]
