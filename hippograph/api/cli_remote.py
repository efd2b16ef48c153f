"""The commands a running server answers: ``remember``, ``search`` and ``recall`` over HTTP.

``serve`` publishes its GraphQL address in ``<data_dir>/server.json`` once it is ready and
removes it when it stops. While it is there, those commands send one GraphQL request
(``hippograph.client``) instead of opening the graph and the embedding model in a new process:
a fraction of a second where opening them took several. The server checks the key
(``HIPPOGRAPH_API_KEY``, sent as a bearer token) and audits the request as it does any HTTP
caller's, so the command does neither itself. A server that does not answer (killed without
removing the file) leaves the command to open the graph as before.

This module is imported by every command: standard library and ``settings`` only at the top.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from hippograph.settings import Settings

if TYPE_CHECKING:
    from hippograph.client import Client

# The commands sent to a running server (the others open the graph themselves).
REMOTE = frozenset({"cmd_remember", "cmd_search", "cmd_recall"})
SERVER_FILE = "server.json"
# Addresses that mean "every interface": a local command reaches them on loopback.
_ANY = {"0.0.0.0": "127.0.0.1", "::": "[::1]", "": "127.0.0.1"}


@dataclass(frozen=True)
class Published:
    """What a running ``serve`` publishes: its pid and GraphQL endpoint."""

    pid: int
    url: str


def endpoint(host: str, port: int) -> str:
    """The GraphQL endpoint a local command reaches a server listening on ``host``:``port`` at."""
    host = _ANY.get(host, host)
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/graphql"


def publish(data_dir: Path, url: str) -> None:
    """Tell commands on ``data_dir`` that this process serves it at ``url`` (owner-only file)."""
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = data_dir / f"{SERVER_FILE}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump({"pid": os.getpid(), "url": url}, fh)
    tmp.replace(data_dir / SERVER_FILE)


def unpublish(data_dir: Path) -> None:
    """Withdraw this process's ``publish`` (another process's file is left alone)."""
    found = published(data_dir)
    if found is not None and found.pid == os.getpid():
        (data_dir / SERVER_FILE).unlink(missing_ok=True)


def published(data_dir: Path) -> Published | None:
    """The server publishing ``data_dir``, or None when none does or its process is gone."""
    try:
        raw = json.loads((data_dir / SERVER_FILE).read_text(encoding="utf-8"))
        found = Published(int(raw["pid"]), str(raw["url"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        os.kill(found.pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:  # alive, another user's: its own files say where it listens
        pass
    return found


def server_for(command: str, settings: Settings) -> str | None:
    """The endpoint to send ``command`` (a ``cmd_*`` name) to, or None to run it here."""
    if command not in REMOTE:
        return None
    found = published(settings.graph.data_dir)
    return None if found is None else found.url


def client(settings: Settings, url: str, namespace: str) -> Client:
    """A client of ``url`` for ``namespace``, presenting ``HIPPOGRAPH_API_KEY`` when set."""
    from hippograph.client import Client

    key = settings.security.api_key
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return Client(url, namespace=namespace, headers=headers, timeout=settings.graph.query_timeout_s)
