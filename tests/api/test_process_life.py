"""How the real processes start and stop: `serve` and `worker` end within 10 s of SIGINT or
SIGTERM and release the data directory; `serve` on a port in use fails at once; a command
attached to a server that died fails with a clear error instead of retrying."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from bench.server import ends_with_parent
from hippograph.graph.errors import GraphUnavailable
from hippograph.graph.store.engine import ensure_free, read_info
from hippograph.graph.store.store import Store
from hippograph.jobs import registry
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import RunOptions
from hippograph.settings import Settings

EXE = str(Path(sys.executable).parent / "hippograph")
STOP_S = 10.0
ATTACHED_END_S = 90.0
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(data_dir: Path, port: int) -> dict[str, str]:
    return {**os.environ, "HIPPOGRAPH_DATA_DIR": str(data_dir), "HIPPOGRAPH_PORT": str(port)}


def _serve(data_dir: Path, *args: str) -> tuple[subprocess.Popen[str], int]:
    """A `hippograph serve` (with ``args``) on a free port, once /healthz answers."""
    port = _free_port()
    proc = subprocess.Popen(
        [EXE, "serve", *args],
        env=_env(data_dir, port),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ends_with_parent,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()[1][-2000:]
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return proc, port
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    pytest.fail("the server did not become healthy within 180 s")


def _stop(proc: subprocess.Popen[str], sig: signal.Signals) -> tuple[int, float, str]:
    """Send ``sig``; the exit status, the seconds it took, and stderr (the process is killed
    if it outlives ``STOP_S``)."""
    started = time.monotonic()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=STOP_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        pytest.fail(f"still running {STOP_S:.0f} s after {sig.name}: {err[-2000:]}")
    return proc.returncode, time.monotonic() - started, err


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "data"


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_serve_stops_on_a_signal_and_frees_the_data_directory(
    data_dir: Path, sig: signal.Signals, status: int
) -> None:
    proc, port = _serve(data_dir)
    code, took, err = _stop(proc, sig)
    assert code == status, err[-2000:]
    assert took < STOP_S
    assert not (data_dir / "engine.json").exists()
    ensure_free(data_dir)  # no DataDirInUse: the lock is released
    assert "Traceback" not in err
    assert "recall warmed up in" in err  # before the server said it was ready
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
    # A second server on the same directory starts and serves.
    again, _ = _serve(data_dir)
    assert _stop(again, signal.SIGTERM)[0] == 143


def test_serve_on_a_port_in_use_fails_at_once_and_holds_nothing(data_dir: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        done = subprocess.run(
            [EXE, "serve"], env=_env(data_dir, port), capture_output=True, text=True, timeout=120
        )
        took = time.monotonic() - started
    assert done.returncode == 2
    assert f"error [PORT_IN_USE]: cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "HIPPOGRAPH_PORT" in done.stderr
    assert "ready" not in done.stdout
    assert took < 30  # the interpreter and imports only: the engine never starts
    assert not (data_dir / "engine.json").exists()
    ensure_free(data_dir)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_worker_stops_on_a_signal_and_frees_the_data_directory(
    data_dir: Path, sig: signal.Signals
) -> None:
    proc = subprocess.Popen(
        [EXE, "worker"],
        env=_env(data_dir, 0),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ends_with_parent,
    )
    deadline = time.monotonic() + 180
    while read_info(data_dir) is None:  # the worker started the engine itself
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()[1]
        time.sleep(0.2)
    time.sleep(3)  # into its schedule: the due jobs run, then it waits
    code, took, err = _stop(proc, sig)
    assert code == 0, err[-2000:]
    assert took < STOP_S
    assert "stopping after the current batch" in err
    assert not (data_dir / "engine.json").exists()
    ensure_free(data_dir)


def test_a_command_attached_to_a_server_that_died_fails_with_a_clear_error(
    data_dir: Path,
) -> None:
    proc, _ = _serve(data_dir)
    settings = Settings.from_env({}, data_dir=data_dir)
    store = Store.open(settings, attach=True)  # as every CLI command opens it
    try:
        assert store.engine is None and store.owner is not None
        proc.kill()
        proc.communicate(timeout=60)
        started = time.monotonic()
        with pytest.raises(GraphUnavailable) as raised:
            registry.run_job(
                store, "decay", JobsConfig.from_settings(settings), RunOptions(trigger="cli")
            )
        assert time.monotonic() - started < STOP_S
        assert f"(process {proc.pid}) has stopped" in raised.value.message
        assert "hippograph serve" in raised.value.message
    finally:
        store.close()


def test_a_worker_attached_to_a_server_that_died_ends_and_leaves_the_data_directory(
    data_dir: Path,
) -> None:
    # A deployment with a worker of its own serves with --no-jobs (docs/operations.md).
    server, _ = _serve(data_dir, "--no-jobs")
    worker = subprocess.Popen(
        [EXE, "worker"],
        env=_env(data_dir, 0),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ends_with_parent,
    )
    try:
        assert worker.stdout is not None
        first = worker.stdout.readline()  # the worker's banner, then the due jobs' runs
        assert "hippograph worker:" in first
        assert worker.stdout.readline()  # one job ran through the server's engine
        server.kill()
        server.communicate(timeout=60)
        started = time.monotonic()
        # A transaction in flight when the server died is retried for the driver's 30 s (its
        # last back-off can end later: 33-34 s measured); the worker ends right after (within
        # WAKE_S when it was waiting between jobs).
        _, err = worker.communicate(timeout=ATTACHED_END_S)
        took = time.monotonic() - started
    finally:
        worker.kill()
        server.kill()
    assert worker.returncode == 2, err[-2000:]
    assert took < ATTACHED_END_S
    assert f"error [GRAPH_UNAVAILABLE]: the server that held {data_dir.resolve()}" in err
    assert "started the embedded engine" not in err  # it never took the directory over
    ensure_free(data_dir)
