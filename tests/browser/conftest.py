"""Browser tests: a page of the real `hippograph serve` process, in Debian's headless Chromium
driven by playwright-core (web/node_modules). A page script (``<page>.cjs``, on chromium.cjs)
does what a person would and prints what the page showed as JSON; the test asserts on it.
They skip, saying why, where Chromium, Node.js or the npm packages are missing."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.server import ends_with_parent
from hippograph.settings import Settings

HERE = Path(__file__).parent
ARTIFACTS = HERE.parent / "artifacts"  # git-ignored: screenshots of the last run
EXE = str(Path(sys.executable).parent / "hippograph")
WEB_DIR = Settings.from_env({}).server.web_dir

PageRunner = Callable[..., dict[str, Any]]


def _missing_tool() -> str | None:
    chromium = shutil.which("chromium")
    if chromium is None:
        return (
            "Chromium is not installed: the browser tests drive Debian's chromium "
            "(`apt-get install chromium`; .ci/run installs it)"
        )
    if shutil.which("node") is None:
        return "Node.js is not installed: the browser tests run playwright-core on node"
    if not (WEB_DIR / "node_modules" / "playwright-core" / "package.json").is_file():
        return f"playwright-core is not in {WEB_DIR}/node_modules: run `make install` (npm ci)"
    return None


@pytest.fixture(scope="session")
def chromium() -> str:
    reason = _missing_tool()
    if reason:
        pytest.skip(reason)
    return str(shutil.which("chromium"))


@pytest.fixture(scope="session")
def server_url(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real `hippograph serve` on a free loopback port, its own data dir."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    data_dir = tmp_path_factory.mktemp("browser") / "data"
    env = {**os.environ, "HIPPOGRAPH_DATA_DIR": str(data_dir), "HIPPOGRAPH_PORT": str(port)}
    proc = subprocess.Popen(
        [EXE, "serve"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=ends_with_parent,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    try:
        while True:
            assert proc.poll() is None, "hippograph serve exited early"
            try:
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("the server did not become healthy within 180 s")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=60)


@pytest.fixture
def run_page(chromium: str) -> PageRunner:
    """``run_page("graphiql", screenshot="graphiql.png", url=..., **params)``: the report of
    tests/browser/graphiql.cjs: ``result`` (what its steps returned), ``seen`` (requests,
    offsite requests, console errors), ``screenshots`` (paths under tests/artifacts)."""

    def run(script: str, *, screenshot: str, **params: Any) -> dict[str, Any]:
        ARTIFACTS.mkdir(exist_ok=True)
        env = {
            **os.environ,
            "HIPPOGRAPH_WEB_DIR": str(WEB_DIR),
            "HIPPOGRAPH_CHROMIUM": chromium,
            "HIPPOGRAPH_ARTIFACTS": str(ARTIFACTS),
            "HIPPOGRAPH_SCREENSHOT": screenshot,
            "HIPPOGRAPH_PAGE_PARAMS": json.dumps(params),
        }
        done = subprocess.run(
            ["node", str(HERE / f"{script}.cjs")],
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert done.returncode == 0, done.stderr
        report: dict[str, Any] = json.loads(done.stdout)
        assert "error" not in report, f"{report['error']}\nscreenshots: {report['screenshots']}"
        return report

    return run
