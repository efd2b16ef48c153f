"""A stop's first step on a store (``Store.drain``, #43): statements not yet started are refused
before writing anything, a transaction already running may finish within ``DRAIN_S`` and is
rolled back at its next statement past it, and the kept (maintenance) thread still writes."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from hippograph.graph.errors import STOPPING, GraphUnavailable
from hippograph.graph.runtime import Runtime
from hippograph.graph.store import store as store_module
from hippograph.graph.store.store import Store, Tx

TOUCH = "feedback/touch_returned"


def _memory(runtime: Runtime, namespace: str) -> str:
    memory_id = str(uuid.uuid4())
    runtime.store.driver.execute_query(
        "CREATE (:Memory {id: $id, namespace: $ns, returned_count: 0})",
        id=memory_id, ns=namespace, database_=runtime.store.database,
    )  # fmt: skip
    return memory_id


def _returned(runtime: Runtime, memory_id: str) -> int:
    rows = runtime.store.driver.execute_query(
        "MATCH (m:Memory {id: $id}) RETURN m.returned_count AS n",
        id=memory_id, database_=runtime.store.database,
    ).records  # fmt: skip
    return int(rows[0]["n"])


def test_a_drained_store_finishes_or_rolls_back_what_runs_and_refuses_the_rest(
    runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "DRAIN_S", 1.0)
    store = Store.open(runtime.settings, attach=True)  # its own driver: drained, then closed
    finished, late = _memory(runtime, namespace), _memory(runtime, namespace)
    drained = threading.Event()
    inside = {finished: threading.Event(), late: threading.Event()}
    outcome: dict[str, object] = {}

    def touch(memory_id: str, wait_s: float) -> None:
        rows = [{"id": memory_id, "times": 1}]

        def work(tx: Tx) -> None:
            tx.run(TOUCH, namespace=namespace, rows=rows, now="2026-01-01")
            inside[memory_id].set()
            drained.wait(30)
            time.sleep(wait_s)
            tx.run(TOUCH, namespace=namespace, rows=rows, now="2026-01-01")

        try:
            outcome[memory_id] = store.write_tx(work)
        except GraphUnavailable as exc:
            outcome[memory_id] = exc

    runners = [
        threading.Thread(target=touch, args=(finished, 0.0)),
        threading.Thread(target=touch, args=(late, 1.5)),  # past DRAIN_S
    ]
    try:
        for runner in runners:
            runner.start()
        assert all(event.wait(30) for event in inside.values())
        store.drain(keep=threading.current_thread())  # both transactions are in flight
        with pytest.raises(GraphUnavailable, match="stopping"):
            threading_refused(store, namespace, finished)
        drained.set()
        for runner in runners:
            runner.join(30)
        kept = [{"id": finished, "times": 1}]
        store.write(TOUCH, namespace=namespace, rows=kept, now="2026-01-01")  # the kept thread
    finally:
        store.close(wait_s=5)
    assert outcome[finished] is None and _returned(runtime, finished) == 3  # 2 + the kept one
    assert isinstance(outcome[late], GraphUnavailable) and "rolled back" in str(outcome[late])
    assert _returned(runtime, late) == 0  # its first statement went with the rollback
    assert STOPPING.startswith("the service is stopping")


def threading_refused(store: Store, namespace: str, memory_id: str) -> None:
    """A statement from another thread than the kept one, after the drain."""
    errors: list[BaseException] = []

    def write() -> None:
        try:
            rows = [{"id": memory_id, "times": 1}]
            store.write(TOUCH, namespace=namespace, rows=rows, now="2026-01-01")
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            errors.append(exc)

    other = threading.Thread(target=write)
    other.start()
    other.join(30)
    if errors:
        raise errors[0]
