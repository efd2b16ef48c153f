"""What opening a Runtime or a Store does to its process: the cyclic garbage collector is
settled, and the process still exits when the embedded engine was never closed."""

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
    young = Settings.from_env({}).gc_young_threshold
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
