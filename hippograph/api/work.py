"""Heavy engine work off the event loop, within a bound (#21 part 2).

Every heavy operation of the API (remember, ingest, recall, search, context, rebuild,
consolidate, a job run) hands its engine work to :func:`heavy`, which runs it on a thread of its
own pool of ``HIPPOGRAPH_MAX_CONCURRENT_WORK`` threads. A request that finds every slot taken
waits at most ``HIPPOGRAPH_WORK_QUEUE_S`` seconds and is then refused with ``OVERLOADED`` (and,
over HTTP, a ``Retry-After`` header): nothing of it ran. Light reads (a memory by id, a page of
memories, tags, history) and ``/healthz`` use Starlette's default pool, so they answer at once
while the heavy ones queue.

Work that has started is never abandoned: a client that goes away does not free the slot before
the thread ends, so the bound counts what the engine really does.
"""

from __future__ import annotations

import functools
import math
import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
from strawberry.types import Info

from hippograph.api.context import runtime
from hippograph.graph.errors import Overloaded
from hippograph.graph.runtime import Runtime

T = TypeVar("T")


class WorkGate:
    """At most ``slots`` operations at once, each on a thread of the gate's own; a wait for a
    slot of at most ``wait_s``. ``what`` and ``settings`` name the work and its bounds in the
    refusal (heavy operations by default; ``api/access.py`` gates key checks too)."""

    def __init__(
        self,
        slots: int,
        wait_s: float,
        *,
        what: str = "heavy operations",
        settings: str = "HIPPOGRAPH_MAX_CONCURRENT_WORK, HIPPOGRAPH_WORK_QUEUE_S",
    ) -> None:
        self.slots = slots
        self.wait_s = wait_s
        self.what = what
        self.settings = settings
        self._slots = anyio.CapacityLimiter(slots)
        self._threads = anyio.CapacityLimiter(slots)

    @property
    def busy(self) -> int:
        return int(self._slots.borrowed_tokens)

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        acquired = False
        with anyio.move_on_after(self.wait_s):
            await self._slots.acquire()
            acquired = True
        if not acquired:
            raise Overloaded(
                self.what,
                f"all {self.slots} slots stayed busy for {self.wait_s:g} s ({self.settings})",
            )
        try:
            call = functools.partial(fn, *args, **kwargs)
            return await anyio.to_thread.run_sync(call, limiter=self._threads)
        finally:
            self._slots.release()


# One gate per opened runtime, keyed by identity (a Runtime is an unhashable dataclass) and
# dropped when the runtime is collected.
_gates: dict[int, WorkGate] = {}
_lock = threading.Lock()


def gate_of(rt: Runtime) -> WorkGate:
    """The runtime's gate, shared by its GraphQL and MCP callers."""
    with _lock:
        gate = _gates.get(id(rt))
        if gate is None:
            gate = WorkGate(rt.settings.limits.max_concurrent_work, rt.settings.limits.work_queue_s)
            _gates[id(rt)] = gate
            weakref.finalize(rt, _gates.pop, id(rt), None)
        return gate


async def heavy(info: Info, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn(*args, **kwargs)`` through the runtime's gate; a refusal sets ``Retry-After``."""
    rt = runtime(info)
    if rt.stopping:
        raise Overloaded("heavy operations", "the server is stopping; retry once it is back")
    gate = gate_of(rt)
    try:
        return await gate.run(fn, *args, **kwargs)
    except Overloaded:
        response = info.context.get("response")
        if response is not None:
            response.headers["Retry-After"] = str(max(1, math.ceil(gate.wait_s)))
        raise
