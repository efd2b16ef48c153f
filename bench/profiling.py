"""Where benchmark time goes: every named statement timed from the moment this is switched on."""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Any

from hippograph.graph.store.store import Store, Tx


def statement_timings() -> dict[str, list[float]]:
    """Time, from now on in this process, every named read (``read NAME``; ``stream NAME`` from
    its first row to its last, the reader's time between rows included), every statement run
    inside a write transaction (``  in tx NAME``) and every whole write transaction, its commit
    included (``write transactions``): key -> seconds of each call."""
    timings: dict[str, list[float]] = defaultdict(list)

    def timed(original: Any, label: Any) -> Any:
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(self, *args, **kwargs)
            finally:
                timings[label(args)].append(time.perf_counter() - started)

        return call

    def streamed(original: Any) -> Any:
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                yield from original(self, *args, **kwargs)
            finally:
                timings[f"stream {args[0]}"].append(time.perf_counter() - started)

        return call

    Store.read = timed(Store.read, lambda a: f"read {a[0]}")  # type: ignore[method-assign]
    Store.stream = streamed(Store.stream)  # type: ignore[method-assign]
    Store.write_tx = timed(Store.write_tx, lambda a: "write transactions")  # type: ignore[method-assign]
    Tx.run = timed(Tx.run, lambda a: f"  in tx {a[0]}")  # type: ignore[method-assign]
    return timings


def print_timings(timings: dict[str, list[float]]) -> None:
    """Each key's calls and total seconds, heaviest first; then forget them (the next step is
    timed on its own)."""
    for key, spent in sorted(timings.items(), key=lambda kv: -sum(kv[1])):
        print(f"    {key:<40} {len(spent):>7} calls {sum(spent):8.2f}s", flush=True)
    timings.clear()
