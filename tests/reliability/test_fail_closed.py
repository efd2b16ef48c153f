"""Keys fail closed on a real `hippograph serve` (#43): open mode is logged at start; the CLI
explains what creating the first key does to a running open server and wants ``--yes``; once
the store has had a key, revoking the last one leaves the server refusing callers without a key
(saying how to proceed), across a restart, until a start chooses ``HIPPOGRAPH_OPEN=1``."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.reliability.server import EXE, GraphQLError, Server

pytestmark = [pytest.mark.slow, pytest.mark.reliability]
HEALTH = "{ health { backend } }"


def hg(data_dir: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HIPPOGRAPH_DATA_DIR": str(data_dir)}
    env.pop("HIPPOGRAPH_API_KEY", None)
    return subprocess.run([EXE, *argv], env=env, capture_output=True, text=True, timeout=120)


def refused(server: Server) -> str:
    with pytest.raises(GraphQLError) as caught:
        server.gql(HEALTH)
    assert caught.value.code == "UNAUTHENTICATED"
    return str(caught.value)


def test_the_last_key_revoked_leaves_the_server_refusing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = Server(data).start()
    try:
        assert server.gql(HEALTH)["health"]["backend"]  # open mode on a fresh store
        assert "access: open mode" in server.tail()

        asked = hg(data, "keys", "create", "--role", "admin", "-n", "*")
        assert asked.returncode == 2, asked
        assert "refuses every request" in asked.stderr and "--yes" in asked.stderr
        assert server.gql(HEALTH)["health"]["backend"]  # nothing changed without --yes

        made = hg(data, "keys", "create", "--role", "admin", "-n", "*", "--yes")
        assert made.returncode == 0, made
        assert "callers without a key are refused" in made.stdout
        key_id = made.stdout.split("created ", 1)[1].split()[0]
        refused(server)

        gone = hg(data, "keys", "revoke", key_id)
        assert gone.returncode == 0 and "last active key" in gone.stdout, gone
        message = refused(server)  # not open again
        assert "hippograph keys create" in message and "HIPPOGRAPH_OPEN=1" in message
    finally:
        server.stop()

    again = Server(data).start()  # a restart does not reopen it either
    try:
        assert "keys required, and none is active" in again.tail()
        refused(again)
    finally:
        again.stop()

    chosen = Server(data, open="1").start()
    try:
        assert chosen.gql(HEALTH)["health"]["backend"]
        assert chosen.log.read_text().count("access: open mode") == 2  # at each open start
    finally:
        chosen.stop()
