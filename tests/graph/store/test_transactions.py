"""Transactions on the embedded engine: a write that loses a race to another writer is run again
at once (not after the driver's 1 s pause) and counted; a statement that runs past
HIPPOGRAPH_QUERY_TIMEOUT_S is stopped with QUERY_TIMEOUT and leaves nothing written."""

from __future__ import annotations

import logging
import threading
import time
import uuid

import neo4j
import pytest

from hippograph.graph.errors import QueryTimeout
from hippograph.graph.runtime import Runtime
from hippograph.graph.store.engine import set_command_timeout
from hippograph.graph.store.store import Tx, begin
from hippograph.settings import Settings

# A write, then a three-way cross product of the namespace's 1,000 nodes: ~10^9 rows, minutes
# of work unless the engine stops it.
SLOW_WRITE = """
CREATE (:Memory {namespace: $ns, i: -1})
WITH 1 AS one
MATCH (a:Memory), (b:Memory), (c:Memory)
WHERE a.namespace = $ns AND b.namespace = $ns AND c.namespace = $ns AND a.i + b.i + c.i = -5
RETURN count(*) AS n
"""


def _memory(runtime: Runtime, namespace: str) -> str:
    memory_id = str(uuid.uuid4())
    runtime.store.driver.execute_query(
        "CREATE (:Memory {id: $id, namespace: $ns, returned_count: 0})",
        id=memory_id,
        ns=namespace,
        database_=runtime.store.database,
    )
    return memory_id


def _returned_count(runtime: Runtime, memory_id: str) -> int:
    rows = runtime.store.driver.execute_query(
        "MATCH (m:Memory {id: $id}) RETURN m.returned_count AS n",
        id=memory_id,
        database_=runtime.store.database,
    ).records
    return int(rows[0]["n"])


def test_a_write_that_loses_a_race_is_run_again_and_counted(
    runtime: Runtime, namespace: str, caplog: pytest.LogCaptureFixture
) -> None:
    store = runtime.store
    memory_id = _memory(runtime, namespace)
    rows = [{"id": memory_id, "times": 1}]
    first_ran, other_committed = threading.Event(), threading.Event()
    runs: list[float] = []

    def slow_touch(tx: Tx) -> None:
        tx.run("feedback/touch_returned", namespace=namespace, rows=rows, now="2026-01-01")
        runs.append(time.monotonic())
        if len(runs) == 1:
            first_ran.set()
            other_committed.wait(30)  # the other writer commits the same record meanwhile

    before = store.retries.total()
    racer = threading.Thread(target=store.write_tx, args=(slow_touch,))
    with caplog.at_level(logging.INFO, logger="hippograph.graph.store.store"):
        racer.start()
        assert first_ran.wait(30)
        store.write(
            "feedback/touch_returned",
            namespace=namespace,
            rows=[{"id": memory_id, "times": 10}],
            now="2026-01-01",
        )
        committed = time.monotonic()
        other_committed.set()
        racer.join(60)
    assert not racer.is_alive()
    # Both writes count: the loser ran again on top of the winner's value, not over it.
    assert _returned_count(runtime, memory_id) == 11
    assert len(runs) == 2
    assert runs[1] - committed < 0.6  # at most RETRY_CAP_S of pause (the driver's: 1 s and more)
    assert store.retries.total() == before + 1
    retried = [r.getMessage() for r in caplog.records if "transaction retried" in r.getMessage()]
    assert len(retried) == 1 and "COMMIT failed" in retried[0], retried


def test_a_statement_past_the_timeout_is_stopped_and_writes_nothing(
    runtime: Runtime, namespace: str
) -> None:
    store = runtime.store
    store.driver.execute_query(
        "UNWIND range(1, 1000) AS i CREATE (:Memory {namespace: $ns, i: i})",
        ns=namespace,
        database_=store.database,
    )
    runs = []

    def slow(tx: Tx) -> None:
        runs.append(1)
        tx._tx.run(SLOW_WRITE, ns=namespace).consume()  # not a named statement: a test's own

    set_command_timeout(1.0)
    started = time.monotonic()
    try:
        with pytest.raises(QueryTimeout) as caught:
            store.write_tx(slow)
    finally:
        set_command_timeout(store.timeout_s)
    elapsed = time.monotonic() - started
    assert elapsed < 15, elapsed  # stopped at ~1 s (more on a loaded machine), not minutes
    assert caught.value.code == "QUERY_TIMEOUT"
    assert caught.value.extensions() == {"code": "QUERY_TIMEOUT", "timeoutS": store.timeout_s}
    assert runs == [1]  # a timeout is not a conflict: not run again
    assert "HIPPOGRAPH_QUERY_TIMEOUT_S" in caught.value.message
    left = store.driver.execute_query(
        "MATCH (m:Memory) WHERE m.namespace = $ns AND m.i = -1 RETURN count(m) AS n",
        ns=namespace,
        database_=store.database,
    ).records[0]["n"]
    assert left == 0
    # The engine still answers at once afterwards, within the restored limit.
    rows = store.read("memory/count", namespace=namespace, statuses=["active"])
    assert rows == [{"count": 0}]


def test_the_timeout_setting_reaches_the_store_and_the_driver(runtime: Runtime) -> None:
    store = runtime.store
    assert store.timeout_s == runtime.settings.graph.query_timeout_s == 120.0
    config = store.driver._default_workspace_config  # the driver has no public getter
    assert config.connection_acquisition_timeout == 120.0


def test_the_query_timeout_is_read_and_checked() -> None:
    assert Settings.from_env({"HIPPOGRAPH_QUERY_TIMEOUT_S": "2.5"}).graph.query_timeout_s == 2.5
    with pytest.raises(ValueError, match="HIPPOGRAPH_QUERY_TIMEOUT_S"):
        Settings.from_env({"HIPPOGRAPH_QUERY_TIMEOUT_S": "0"})


def test_begin_goes_out_with_the_first_statement() -> None:
    """``store.begin`` relies on the driver's private ``_pipelined_begin`` flag (what
    ``execute_query`` uses): a driver upgrade that drops or renames it fails here instead of
    silently costing every write a round trip again."""
    driver = neo4j.GraphDatabase.driver("bolt://127.0.0.1:9", auth=("u", "p"))  # never dialled
    try:
        with driver.session() as session:
            seen: list[bool] = []

            def opened(**_: object) -> None:  # what the flag says while the transaction opens
                seen.append(bool(session._pipelined_begin))

            session.begin_transaction = opened  # type: ignore[method-assign,assignment]
            begin(session, 5.0)
            assert seen == [True] and not session._pipelined_begin
    finally:
        driver.close()
