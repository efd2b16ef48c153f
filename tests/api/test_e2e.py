"""End to end: the real `hippograph serve` process, HTTP, and a second process attaching to its
embedded engine over Bolt, as a user would run them."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from bench.server import ends_with_parent
from hippograph.api.mcp import NAMESPACE_HEADER
from hippograph.client import Client as HippographClient
from tests.api.test_cli_imports import HEAVY

EXE = str(Path(sys.executable).parent / "hippograph")
pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(data_dir: Path, port: int) -> dict[str, str]:
    return {**os.environ, "HIPPOGRAPH_DATA_DIR": str(data_dir), "HIPPOGRAPH_PORT": str(port)}


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, Path, subprocess.Popen[str]]]:
    data_dir = tmp_path_factory.mktemp("e2e") / "data"
    workdir = data_dir.parent / "cwd"  # where serve runs: nothing may be written there
    workdir.mkdir()
    port = _free_port()
    proc = subprocess.Popen(
        [EXE, "serve"],
        env=_env(data_dir, port),
        cwd=workdir,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        preexec_fn=ends_with_parent,
    )
    url = f"http://127.0.0.1:{port}/graphql"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        assert proc.poll() is None, "hippograph serve exited early"
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("the server did not become healthy within 180 s")
    yield url, data_dir, proc
    proc.terminate()
    proc.wait(timeout=60)
    if proc.stdout is not None:
        proc.stdout.close()


def test_serve_prints_graphiql_url_and_round_trips(
    server: tuple[str, Path, subprocess.Popen[str]],
) -> None:
    url, _, proc = server
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert "GraphiQL" in first and "/graphql" in first
    remember = httpx.post(
        url,
        json={
            "query": 'mutation { remember(namespace: "e2e", '
            'memory: {content: "Zoe keeps bees in her garden"}) '
            "{ created memory { id } } }"
        },
        timeout=60,
    ).json()
    assert remember["data"]["remember"]["created"] is True
    found = httpx.post(
        url,
        json={
            "query": '{ search(namespace: "e2e", query: "who has a beehive?", k: 1) '
            "{ memory { content } } }"
        },
        timeout=60,
    ).json()
    assert found["data"]["search"][0]["memory"]["content"] == "Zoe keeps bees in her garden"


def test_engine_logs_stay_in_the_data_directory(
    server: tuple[str, Path, subprocess.Popen[str]],
) -> None:
    """The embedded engine logs under <data_dir>/log, not under the working directory."""
    _, data_dir, _ = server
    logs = list((data_dir / "log").glob("arcadedb.log*"))
    assert any("ArcadeDB Server started" in p.read_text(errors="replace") for p in logs)
    assert list((data_dir.parent / "cwd").iterdir()) == []


def test_cli_attaches_to_the_running_engine(
    server: tuple[str, Path, subprocess.Popen[str]],
) -> None:
    url, data_dir, _ = server
    env = _env(data_dir, 0)
    done = subprocess.run(
        [EXE, "remember", "Yusuf plays the oud", "-n", "e2e"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("remembered ")
    found = subprocess.run(
        [EXE, "search", "which instrument does Yusuf play", "-n", "e2e", "-k", "1"],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert found.returncode == 0, found.stderr
    assert "Yusuf plays the oud" in found.stdout
    # The server sees what the CLI wrote: one graph, one owner.
    seen = httpx.post(
        url,
        json={"query": '{ search(namespace: "e2e", query: "oud", k: 1) { memory { content } } }'},
        timeout=60,
    ).json()
    assert seen["data"]["search"][0]["memory"]["content"] == "Yusuf plays the oud"


def test_cli_sends_to_the_running_server_without_heavy_imports(
    server: tuple[str, Path, subprocess.Popen[str]],
) -> None:
    """remember and recall go to the server over HTTP (``api/cli_remote.py``): the command
    imports neither the engine nor the model, and the server's trail records the write."""
    _, data_dir, _ = server
    env = _env(data_dir, 0)
    argv = [sys.executable, "-X", "importtime", "-m", "hippograph.api.cli"]
    wrote = subprocess.run(
        [*argv, "remember", "Ines restores harpsichords", "-n", "e2e-cli"],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert wrote.returncode == 0, wrote.stderr[-2000:]
    assert wrote.stdout.startswith("remembered ") and "Ines restores harpsichords" in wrote.stdout
    found = subprocess.run(
        [*argv, "recall", "who restores old keyboard instruments?", "-n", "e2e-cli", "-k", "1"],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert found.returncode == 0, found.stderr[-2000:]
    assert "Ines restores harpsichords" in found.stdout
    for done in (wrote, found):
        modules = {
            line.rsplit("|", 1)[1].strip().split(".")[0]
            for line in done.stderr.splitlines()
            if line.startswith("import time:") and "|" in line
        }
        assert "httpx" in modules
        assert modules & HEAVY == set()
    # The server audited the write as an HTTP caller's (an attached command's says "local").
    trail = [json.loads(line) for line in (data_dir / "audit.jsonl").read_text().splitlines()]
    assert [(e["key_id"], e["operation"]) for e in trail if e["namespace"] == "e2e-cli"] == [
        ("open", "rememberBatch")
    ]


def test_second_server_on_the_same_data_dir_is_refused(
    server: tuple[str, Path, subprocess.Popen[str]],
) -> None:
    _, data_dir, proc = server
    second = subprocess.run(
        [EXE, "serve"],
        env=_env(data_dir, _free_port()),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert second.returncode == 2
    assert "DATA_DIR_IN_USE" in second.stderr
    assert f"held by process {proc.pid}" in second.stderr
    assert "HIPPOGRAPH_GRAPH_URI=bolt://127.0.0.1:" in second.stderr


def test_mcp_over_stdio_attaches_and_over_http_sees_it(
    server: tuple[str, Path, subprocess.Popen[str]],
) -> None:
    """`hippograph mcp` attaches to the serving engine; the served /mcp and the Python client
    read what it wrote; /mcp refuses a Host that is not loopback (DNS rebinding)."""
    url, data_dir, _ = server
    base = url.removesuffix("/graphql")
    params = StdioServerParameters(
        command=EXE, args=["mcp", "-n", "e2e-mcp"], env=_env(data_dir, 0)
    )

    async def over_stdio() -> str:
        async with Client(params, read_timeout_seconds=180) as client:
            done = await client.call_tool(
                "remember", {"memories": [{"content": "Wren repairs clocks on weekends"}]}
            )
            assert not done.is_error, done.content
            assert isinstance(done.structured_content, dict)
            return str(done.structured_content["remembered"][0]["memory"]["id"])

    async def over_http() -> list[str]:
        headers = {NAMESPACE_HEADER: "e2e-mcp"}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=60) as http,
            Client(streamable_http_client(f"{base}/mcp", http_client=http)) as client,
        ):
            found = await client.call_tool("search", {"query": "who fixes clocks?", "k": 1})
            assert isinstance(found.structured_content, dict)
            return [r["memory"]["id"] for r in found.structured_content["results"]]

    memory_id = anyio.run(over_stdio)
    assert anyio.run(over_http) == [memory_id]
    with HippographClient(url, namespace="e2e-mcp") as client:
        assert client.memory(memory_id).content == "Wren repairs clocks on weekends"
    rebinding = httpx.post(f"{base}/mcp", headers={"Host": "evil.example:80"}, json={}, timeout=30)
    assert rebinding.status_code in (403, 421)
