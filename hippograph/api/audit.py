"""The audit trail: who did what to which namespace, and when.

One JSON line per write, admin action or refusal in ``<data_dir>/audit.jsonl`` (mode 0600),
appended with one ``write`` on an ``O_APPEND`` descriptor, so the server and attached commands
can share it and a line is never interleaved with another. A line holds the service clock's
time, the key id (``open`` in open mode, ``local`` for a command without a key), the operation
(a GraphQL field, an MCP tool's field, a CLI command), the namespace (``*`` for all) and the
outcome (``ok`` or the error code): never memory content, arguments or secrets. Each value
is bounded and scanned (``bounded``): a refused request's namespace is the caller's.

It is a file, not nodes in the graph, so that auditing a write never adds a write to the graph
(or a failure mode to the write), and it survives a graph restored from an export.

Rotation: once the file passes ``HIPPOGRAPH_AUDIT_MAX_BYTES`` (64 MiB) it becomes
``audit.jsonl.1`` (the older ones shift to ``.2`` ... ``.{BACKUPS}``, the oldest is dropped), so
the trail is bounded on disk and a read stays bounded. The writer that sees the size passed
rotates under an exclusive ``flock`` and only if no other process rotated first, so the server
and attached commands never rotate twice. Reads walk the current file, then the backups.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from hippograph.graph import clock, validate
from hippograph.graph.model import parse_iso, to_iso

FILE_NAME = "audit.jsonl"
MAX_READ = 1000
BACKUPS = 5
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
MAX_VALUE_CHARS = 128  # a namespace's limit: a longer value was never a valid one


def bounded(value: str) -> str:
    """``value`` as a line may hold it: at most ``MAX_VALUE_CHARS`` characters, and no secret
    (the identifier gate's scan, ``validate.secrets_in``, over the first ``4 *
    MAX_VALUE_CHARS``: a refused request's namespace is whatever the caller sent)."""
    head = value[: 4 * MAX_VALUE_CHARS]
    found = validate.secrets_in(head)
    if found:
        return f"[REDACTED:{found[0].kind}]"
    if len(value) > MAX_VALUE_CHARS:
        return f"{value[:MAX_VALUE_CHARS]}...({len(value)} characters)"
    return value


@dataclass(frozen=True, kw_only=True)
class AuditEntry:
    at: str
    key_id: str
    operation: str
    namespace: str
    outcome: str


class AuditLog:
    """The append-only audit file of one data directory."""

    def __init__(self, data_dir: Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.path = data_dir / FILE_NAME
        self.max_bytes = max_bytes
        self._lock = threading.Lock()

    def files(self) -> list[Path]:
        """The trail's files, newest first: the current one, then ``.1`` ... ``.{BACKUPS}``."""
        return [
            self.path,
            *(self.path.with_name(f"{FILE_NAME}.{i}") for i in range(1, BACKUPS + 1)),
        ]

    def record(self, *, key_id: str, operation: str, namespace: str | None, outcome: str) -> None:
        entry = AuditEntry(
            at=to_iso(clock.now()), key_id=bounded(key_id), operation=bounded(operation),
            namespace=bounded(namespace) if namespace is not None else "*",
            outcome=bounded(outcome),
        )  # fmt: skip
        line = (json.dumps(asdict(entry), separators=(",", ":")) + "\n").encode()
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, line)
                if os.fstat(fd).st_size > self.max_bytes:
                    self._rotate(fd)
            finally:
                os.close(fd)

    def _rotate(self, fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)  # released when fd closes
        try:
            if os.stat(self.path).st_ino != os.fstat(fd).st_ino:
                return  # another process rotated it while this one waited
        except FileNotFoundError:
            return
        files = self.files()
        files[-1].unlink(missing_ok=True)
        for older, newer in zip(reversed(files[1:]), reversed(files[:-1]), strict=True):
            if newer.exists():
                newer.rename(older)

    def read(
        self, *, namespace: str | None = None, since: datetime | None = None, limit: int = 100
    ) -> list[AuditEntry]:
        """The newest ``limit`` entries (newest first), of one namespace or all, since a time."""
        if since is not None and since.tzinfo is None:
            since = since.replace(tzinfo=UTC)
        found: list[AuditEntry] = []
        for path in self.files():
            try:
                text = path.read_text(encoding="utf-8")
            except FileNotFoundError:
                continue
            for line in reversed(text.splitlines()):
                try:
                    entry = AuditEntry(**json.loads(line))
                except (ValueError, TypeError):
                    continue  # a torn last line after a crash
                if namespace is not None and entry.namespace != namespace:
                    continue
                if since is not None and parse_iso(entry.at) < since:
                    return found
                found.append(entry)
                if len(found) >= min(limit, MAX_READ):
                    return found
        return found
