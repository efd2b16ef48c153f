"""The stale-while-revalidate cache recall keeps namespace sizes and speakers in."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from hippograph.graph.store.revalidating import Revalidating


def test_values_are_kept_then_refreshed_off_the_callers_path() -> None:
    calls: list[str] = []
    release = threading.Event()
    source = {"a": 1}

    def compute(key: str) -> int:
        calls.append(key)
        if len(calls) > 1:
            release.wait(5)  # the refresh is slow: the caller must not wait for it
        return source[key]

    with ThreadPoolExecutor(1) as pool:
        cache = Revalidating(compute, refresh=pool, cost_ratio=0.0, min_ttl_s=0.0)
        assert cache.get("a") == 1  # computed while the caller waits
        source["a"] = 2
        started = time.monotonic()
        assert cache.get("a") == 1  # expired: the old value at once, one refresh started
        assert cache.get("a") == 1  # ... and not a second one
        assert time.monotonic() - started < 1
        assert calls == ["a", "a"]
        release.set()
        for _ in range(100):
            if cache.get("a") == 2:
                break
            time.sleep(0.02)
        assert cache.get("a") == 2


def test_a_value_lives_in_proportion_to_its_cost_and_failures_are_retried() -> None:
    attempts = {"n": 0}

    def flaky(key: str) -> str:
        attempts["n"] += 1
        if attempts["n"] == 1:
            raise RuntimeError("engine busy")
        return key.upper()

    with ThreadPoolExecutor(1) as pool:
        cache = Revalidating(flaky, refresh=pool, min_ttl_s=60.0)
        with pytest.raises(RuntimeError):
            cache.get("x")
        assert cache.get("x") == "X"  # the failure was not cached
        assert cache.get("x") == "X" and attempts["n"] == 2  # fresh for 60 s: not recomputed
