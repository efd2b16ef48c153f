"""The audit trail: who did what to which namespace, and when.

One JSON line per write, admin action or refusal in ``<data_dir>/audit.jsonl`` (mode 0600),
appended with one ``write`` on an ``O_APPEND`` descriptor, so the server and attached commands
can share it and a line is never interleaved with another. A line holds the service clock's
time, the key id (``open`` in open mode, ``local`` for a command without a key, ``-`` for a
caller that presented no valid key), the operation (a GraphQL field, an MCP tool's field, a CLI
command), the namespace (``*`` for all) and the outcome (``ok`` or the error code); an erasure
adds how many of each thing it removed (``counts``): never memory content, arguments or
secrets. Each value is bounded and scanned (``bounded``): a refused request's namespace is the
caller's.

Refusals of callers with no valid key are counted, not each written (``refused``): anyone who
can reach the port can send them, and one line each let 14 requests rotate every genuine entry
away. Per window of ``refused_window_s`` (60 s), a source (the client address) gets one sample
line the first time it is refused, at most ``max_samples`` sources in all; the window's counts
are then written as one summary line per error code (``operation`` ``refused``, ``counts``:
requests, sources, samples; ``source``: the busiest one), when the window ends, when the trail
is read, or when the server stops. So such traffic adds at most ``max_samples`` + a few lines a
window, whatever its volume, and cannot force a rotation.

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
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from hippograph.graph import clock, validate
from hippograph.graph.model import parse_iso, to_iso

FILE_NAME = "audit.jsonl"
MAX_READ = 1000
BACKUPS = 5
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
MAX_VALUE_CHARS = 128  # a namespace's limit: a longer value was never a valid one
REFUSED = "refused"  # the operation of a window's summary line
REFUSED_WINDOW_S = 60.0
MAX_SAMPLES = 20  # sample lines a window, over every source
MAX_SOURCES = 10_000  # sources counted apart a window; the rest share one count
OTHER_SOURCES = "(others)"
# What an erasure's line counts (the names of graph.write.erasure.Erasure's fields).
ERASURE_COUNTS = (
    "turns", "runs", "memories", "kept", "decisions", "remember_items", "edits", "gaps", "tags",
    "words",
)  # fmt: skip


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


def erasure_counts(done: object) -> dict[str, int]:
    """How many of each thing an erasure (``Erasure`` or its GraphQL payload) removed; 1 under
    ``dry_run`` when nothing was."""
    counts = {name: int(getattr(done, name, 0) or 0) for name in ERASURE_COUNTS}
    if getattr(done, "dry_run", False):
        counts["dry_run"] = 1
    return counts


@dataclass(frozen=True, kw_only=True)
class AuditEntry:
    at: str
    key_id: str
    operation: str
    namespace: str
    outcome: str
    source: str | None = None  # the client address of a refusal's sample or summary
    counts: dict[str, int] | None = None  # an erasure's or a refusal summary's numbers


@dataclass
class _Window:
    """The refusals counted since ``started`` (monotonic), per error code."""

    started: float
    requests: dict[str, int] = field(default_factory=dict)
    sources: dict[str, dict[str, int]] = field(default_factory=dict)
    samples: dict[str, int] = field(default_factory=dict)
    sampled: set[str] = field(default_factory=set)


class AuditLog:
    """The append-only audit file of one data directory.

    Args:
        data_dir: where ``audit.jsonl`` lives.
        max_bytes: the size past which it rotates.
        refused_window_s: the window refusals are counted over (see the module).
        max_samples: sample lines of refusals a window.
    """

    def __init__(
        self,
        data_dir: Path,
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        refused_window_s: float = REFUSED_WINDOW_S,
        max_samples: int = MAX_SAMPLES,
    ) -> None:
        self.path = data_dir / FILE_NAME
        self.max_bytes = max_bytes
        self.refused_window_s = refused_window_s
        self.max_samples = max_samples
        self._lock = threading.Lock()
        self._refusals = threading.Lock()
        self._window: _Window | None = None
        self._timer: threading.Timer | None = None

    def files(self) -> list[Path]:
        """The trail's files, newest first: the current one, then ``.1`` ... ``.{BACKUPS}``."""
        return [
            self.path,
            *(self.path.with_name(f"{FILE_NAME}.{i}") for i in range(1, BACKUPS + 1)),
        ]

    def record(
        self, *, key_id: str, operation: str, namespace: str | None, outcome: str,
        source: str | None = None, counts: Mapping[str, int] | None = None,
    ) -> None:  # fmt: skip
        entry = AuditEntry(
            at=to_iso(clock.now()), key_id=bounded(key_id), operation=bounded(operation),
            namespace=bounded(namespace) if namespace is not None else "*",
            outcome=bounded(outcome), source=None if source is None else bounded(source),
            counts=None if counts is None else {bounded(k): int(v) for k, v in counts.items()},
        )  # fmt: skip
        body = {k: v for k, v in asdict(entry).items() if v is not None}
        self._append((json.dumps(body, separators=(",", ":")) + "\n").encode())

    def refused(self, *, source: str, operation: str, namespace: str | None, outcome: str) -> None:
        """A call refused before any key was established (no key, a wrong one, its rate):
        counted in the window; written as a sample only for a source's first refusal of the
        window while samples last (see the module)."""
        sample = False
        with self._refusals:
            now = time.monotonic()
            window = self._window
            if window is not None and now - window.started >= self.refused_window_s:
                self._write_summary(window)
                window = None
            if window is None:
                window = self._window = _Window(started=now)
                self._arm_timer()
            window.requests[outcome] = window.requests.get(outcome, 0) + 1
            counted = window.sources.setdefault(outcome, {})
            name = source if source in counted or len(counted) < MAX_SOURCES else OTHER_SOURCES
            counted[name] = counted.get(name, 0) + 1
            if source not in window.sampled and len(window.sampled) < self.max_samples:
                window.sampled.add(source)
                window.samples[outcome] = window.samples.get(outcome, 0) + 1
                sample = True
        if sample:
            self.record(key_id="-", operation=operation, namespace=namespace, outcome=outcome,
                        source=source)  # fmt: skip

    def flush(self) -> None:
        """Write the refusals counted so far as the window's summary, and start a new window."""
        with self._refusals:
            window, self._window = self._window, None
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if window is not None:
                self._write_summary(window)

    def _arm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(self.refused_window_s, self.flush)
        self._timer.daemon = True
        self._timer.start()

    def _write_summary(self, window: _Window) -> None:
        for outcome, requests in sorted(window.requests.items()):
            sources = window.sources.get(outcome, {})
            busiest = max(sources, key=sources.__getitem__) if sources else "-"
            counts = {
                "requests": requests, "sources": len(sources),
                "samples": window.samples.get(outcome, 0),
            }  # fmt: skip
            self.record(key_id="-", operation=REFUSED, namespace=None, outcome=outcome,
                        source=busiest, counts=counts)  # fmt: skip

    def _append(self, line: bytes) -> None:
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
        """The newest ``limit`` entries (newest first), of one namespace or all, since a time;
        the refusals counted so far are written first, so the read includes them."""
        self.flush()
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
