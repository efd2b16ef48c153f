"""The audit trail: who did what to which namespace, and when.

One JSON line per write, admin action or refusal in ``<data_dir>/audit.jsonl`` (mode 0600),
appended with one ``write`` on an ``O_APPEND`` descriptor, so the server and attached commands
can share it and a line is never interleaved with another. A line holds the service clock's
time, the key id (``open`` in open mode, ``local`` for a command without a key), the operation
(a GraphQL field, an MCP tool's field, a CLI command), the namespace (``*`` for all) and the
outcome (``ok`` or the error code): never memory content, arguments or secrets.

It is a file, not nodes in the graph, so that auditing a write never adds a write to the graph
(or a failure mode to the write), and it survives a graph restored from an export.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from hippograph.graph import clock
from hippograph.graph.model import parse_iso, to_iso

FILE_NAME = "audit.jsonl"
MAX_READ = 1000


@dataclass(frozen=True, kw_only=True)
class AuditEntry:
    at: str
    key_id: str
    operation: str
    namespace: str
    outcome: str


class AuditLog:
    """The append-only audit file of one data directory."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / FILE_NAME
        self._lock = threading.Lock()

    def record(self, *, key_id: str, operation: str, namespace: str | None, outcome: str) -> None:
        entry = AuditEntry(
            at=to_iso(clock.now()), key_id=key_id, operation=operation,
            namespace=namespace if namespace is not None else "*", outcome=outcome,
        )  # fmt: skip
        line = (json.dumps(asdict(entry), separators=(",", ":")) + "\n").encode()
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, line)
            finally:
                os.close(fd)

    def read(
        self, *, namespace: str | None = None, since: datetime | None = None, limit: int = 100
    ) -> list[AuditEntry]:
        """The newest ``limit`` entries (newest first), of one namespace or all, since a time."""
        if since is not None and since.tzinfo is None:
            since = since.replace(tzinfo=UTC)
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        found: list[AuditEntry] = []
        for line in reversed(text.splitlines()):
            try:
                entry = AuditEntry(**json.loads(line))
            except (ValueError, TypeError):
                continue  # a torn last line after a crash
            if namespace is not None and entry.namespace != namespace:
                continue
            if since is not None and parse_iso(entry.at) < since:
                break
            found.append(entry)
            if len(found) >= min(limit, MAX_READ):
                break
        return found
