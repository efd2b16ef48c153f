"""A real `hippograph serve` process on a data directory of its own and a free loopback port,
for the reliability suite: started, queried over HTTP, killed with SIGKILL, restarted."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.server import ends_with_parent

EXE = str(Path(sys.executable).parent / "hippograph")
START_S = 240.0


class GraphQLError(Exception):
    def __init__(self, errors: list[dict[str, Any]]) -> None:
        super().__init__(errors[0].get("message", ""))
        self.errors = errors
        self.code = errors[0].get("extensions", {}).get("code")


class Server:
    """``hippograph serve`` on ``data_dir``; ``env``: more HIPPOGRAPH_* variables."""

    def __init__(self, data_dir: Path, **env: str) -> None:
        self.data_dir = data_dir
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.log = data_dir.parent / "serve.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        env = {
            **os.environ,
            "HIPPOGRAPH_DATA_DIR": str(self.data_dir),
            "HIPPOGRAPH_HOST": "127.0.0.1",
            "HIPPOGRAPH_PORT": str(self.port),
            **{f"HIPPOGRAPH_{k.upper()}": v for k, v in self.env.items()},
        }
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                [EXE, "serve"], env=env, stdout=log, stderr=log, preexec_fn=ends_with_parent
            )
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"serve exited with {self.proc.returncode}: {self.tail()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.kill()
        pytest.fail(f"serve did not answer /healthz within {START_S:.0f} s: {self.tail()}")

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs (the crash under test)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()

    def gql(self, query: str, timeout: float = 300.0, **variables: Any) -> dict[str, Any]:
        """The ``data`` of a GraphQL answer; raises GraphQLError when it has errors."""
        r = httpx.post(
            f"{self.url}/graphql",
            json={"query": query, "variables": variables},
            timeout=timeout,
        )
        assert r.status_code == 200, r.text[:500]
        body = r.json()
        if body.get("errors"):
            raise GraphQLError(body["errors"])
        return dict(body["data"])

    def memory_ids(self, namespace: str, status: str | None = None) -> set[str]:
        """Every memory id of ``namespace`` (of every status unless ``status``, e.g. ACTIVE)."""
        ids: set[str] = set()
        after = None
        filt = {"status": status}  # null: every status
        while True:
            page = self.gql(
                "query($ns: String!, $f: MemoryFilter, $after: String) { memories(namespace: $ns,"
                " filter: $f, first: 500, after: $after) { items { id } nextCursor } }",
                ns=namespace, f=filt, after=after,
            )["memories"]  # fmt: skip
            ids.update(m["id"] for m in page["items"])
            after = page["nextCursor"]
            if after is None:
                return ids
