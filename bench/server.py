"""`hippograph serve` as a process of its own, for the benchmarks (cold start, latency)."""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

# Linux prctl(2): the signal a child gets when the thread that started it ends.
PR_SET_PDEATHSIG = 1
_PRCTL = ctypes.CDLL(None, use_errno=True).prctl  # resolved here: the child only calls it


def ends_with_parent() -> None:
    """A child's ``preexec_fn``: it is sent SIGTERM (and stops as on Ctrl-C) when the process
    that started it ends, so a killed test run or benchmark leaves no server running (one
    killed suite left `hippograph serve` running for 26 minutes)."""
    _PRCTL(PR_SET_PDEATHSIG, signal.SIGTERM)


# Answered only once the engine, the model and the schema are all up.
READY_QUERY = '{ search(namespace: "cold", query: "hello", k: 1) { score } }'


@dataclass(frozen=True)
class Served:
    url: str  # the GraphQL endpoint
    proc: subprocess.Popen[bytes]
    ready_s: float  # from launch to the first answered query

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=60)


def serve(
    data_dir: Path,
    *,
    timeout_s: float = 180.0,
    log: Path | None = None,
    port: int | None = None,
    **settings: str,
) -> Served:
    """Start ``hippograph serve`` on ``data_dir`` and ``port`` (None: a free one; ``settings``:
    more ``HIPPOGRAPH_*`` variables by field name) and return once it answers a query; ``log``
    receives its output (discarded without)."""
    if port is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    env = {
        **os.environ,
        "HIPPOGRAPH_DATA_DIR": str(data_dir),
        "HIPPOGRAPH_PORT": str(port),
        **{f"HIPPOGRAPH_{name.upper()}": value for name, value in settings.items()},
    }
    url = f"http://127.0.0.1:{port}/graphql"
    exe = Path(sys.executable).parent / "hippograph"
    started = time.perf_counter()
    out = log.open("ab") if log is not None else subprocess.DEVNULL
    proc = subprocess.Popen(
        [str(exe), "serve"], env=env, stdout=out, stderr=out, preexec_fn=ends_with_parent
    )
    while time.perf_counter() - started < timeout_s:
        if proc.poll() is not None:
            raise SystemExit(f"hippograph serve exited with {proc.returncode}")
        try:
            r = httpx.post(url, json={"query": READY_QUERY}, timeout=5)
            if r.status_code == 200 and "data" in r.json():
                return Served(url, proc, time.perf_counter() - started)
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.terminate()
    raise SystemExit(f"hippograph serve did not answer within {timeout_s:.0f} s")
