"""What opening a Runtime or a Store does to its process: the cyclic garbage collector is
settled, the process still exits when the embedded engine was never closed, and closing a store
waits for the statements still running in other threads."""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from hippograph.graph.runtime import settle_heap
from hippograph.graph.store.engine import ensure_free
from hippograph.settings import Settings


def test_settling_the_heap_freezes_it_and_collects_the_young_generation_less_often() -> None:
    before = gc.get_threshold()
    young = Settings.from_env({}).graph.gc_young_threshold
    assert young == 50_000  # the default
    try:
        settle_heap(young)
        assert gc.get_threshold() == (young, before[1], before[2])
        assert gc.get_freeze_count() > 10_000  # the model runtime and the driver, out of reach
    finally:
        gc.set_threshold(*before)


@pytest.mark.parametrize(("ending", "exit_code"), [("pass", 0), ("raise SystemExit(3)", 3)])
def test_a_process_that_never_closes_its_store_still_exits_and_frees_the_data_dir(
    tmp_path: Path, ending: str, exit_code: int
) -> None:
    script = textwrap.dedent(
        f"""
        from pathlib import Path
        from hippograph.graph.store.store import Store
        from hippograph.settings import Settings
        store = Store.open(Settings.from_env({{}}, data_dir=Path({str(tmp_path)!r})), attach=False)
        store.ping()
        {ending}
        """
    )
    # Without the store closed at exit, the JVM waited for ever on the engine's Bolt threads.
    done = subprocess.run([sys.executable, "-c", script], timeout=120, capture_output=True)
    assert done.returncode == exit_code, done.stderr.decode()[-2000:]
    assert not (tmp_path / "engine.json").exists()
    ensure_free(tmp_path)  # the lock was released: no DataDirInUse
    assert not list((tmp_path / "log").glob("hs_err*"))  # and the JVM did not crash


def test_closing_a_store_waits_for_a_transaction_in_flight_then_refuses_new_ones(
    tmp_path: Path,
) -> None:
    # A background refresh still reading when its owner closed the store made the driver fail
    # inside close (BufferError): close now waits for it, and a statement after close gets a
    # typed GraphUnavailable instead of a driver error.
    script = textwrap.dedent(
        f"""
        import threading, time
        from pathlib import Path
        from hippograph.graph.errors import GraphUnavailable
        from hippograph.graph.store.store import Store
        from hippograph.settings import Settings
        store = Store.open(Settings.from_env({{}}, data_dir=Path({str(tmp_path)!r})), attach=False)
        began, release, outcome = threading.Event(), threading.Event(), []

        def work(tx):
            began.set()
            release.wait(30)
            return "committed"

        worker = threading.Thread(target=lambda: outcome.append(store.write_tx(work)))
        worker.start()
        began.wait(30)
        closer = threading.Thread(target=store.close)
        closer.start()
        time.sleep(1.0)
        print("closed while in flight:", not closer.is_alive())
        release.set()
        worker.join(30)
        closer.join(60)
        print("transaction:", outcome)
        print("closed after:", not closer.is_alive())
        try:
            store.ping()
        except GraphUnavailable as exc:
            print("after close:", type(exc).__name__, exc)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], timeout=180, capture_output=True)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert "closed while in flight: False" in out
    assert "transaction: ['committed']" in out
    assert "closed after: True" in out
    assert "after close: GraphUnavailable" in out and "is closed" in out
