"""A cache for values that may be somewhat old: stale while revalidating.

The first read of a key computes its value (the caller waits); later reads get the cached value
at once; a read after it expired starts one refresh off the caller's path and still gets the old
value. A value is kept ``cost_ratio`` times as long as computing it took, within bounds: a cheap
value is refreshed often, an expensive one rarely. Recall keeps the namespace's memory count
(tag rarity) and its speakers (the speaker cue) this way.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass(frozen=True)
class Lifetime:
    """How long a value that took ``elapsed`` seconds to get is kept: ``cost_ratio`` x elapsed,
    within [min_s, max_s] (here, and for recall's vocabularies held in memory)."""

    cost_ratio: float
    min_s: float
    max_s: float

    def of(self, elapsed: float) -> float:
        return min(self.max_s, max(self.min_s, self.cost_ratio * elapsed))


class Revalidating(Generic[K, V]):
    """``get(key)``: ``compute(key)``, cached as described in the module docstring.

    cost_ratio / min_ttl_s / max_ttl_s: a value lives cost_ratio x its computing time, within
        [min_ttl_s, max_ttl_s].
    refresh: where expired values are recomputed (a shared thread pool).
    max_keys: past this many keys the cache starts over (a bound, not an LRU).
    """

    def __init__(
        self,
        compute: Callable[[K], V],
        *,
        refresh: Executor,
        cost_ratio: float = 1000.0,
        min_ttl_s: float = 5.0,
        max_ttl_s: float = 900.0,
        max_keys: int = 10_000,
    ) -> None:
        self._compute = compute
        self._refresh = refresh
        self._lifetime = Lifetime(cost_ratio, min_ttl_s, max_ttl_s)
        self._max_keys = max_keys
        self._values: dict[K, tuple[float, V]] = {}  # key -> (expires at, value)
        self._refreshing: set[K] = set()
        self._lock = threading.Lock()

    def get(self, key: K) -> V:
        with self._lock:
            cached = self._values.get(key)
            stale = (
                cached is not None and time.monotonic() >= cached[0] and key not in self._refreshing
            )
            if stale:
                self._refreshing.add(key)
        if cached is None:
            return self._load(key)
        if stale:
            self._refresh.submit(self._load, key)
        return cached[1]

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def _load(self, key: K) -> V:
        started = time.monotonic()
        try:
            value = self._compute(key)
        except Exception:
            log.warning("computing %r failed; the next read tries again", key)
            with self._lock:
                self._refreshing.discard(key)
            raise
        now = time.monotonic()
        ttl = self._lifetime.of(now - started)
        with self._lock:
            if len(self._values) >= self._max_keys:
                self._values.clear()
            self._values[key] = (now + ttl, value)
            self._refreshing.discard(key)
        return value
