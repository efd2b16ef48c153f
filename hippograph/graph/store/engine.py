"""The embedded ArcadeDB engine: started in-process, reached over its Bolt port like any server.

One process owns a data directory at a time. The owner holds an exclusive ``flock`` on
``<data_dir>/hippograph.lock`` (released by the kernel if the process dies) and publishes
``<data_dir>/engine.json`` with its pid and Bolt port, so other processes (the job worker, a CLI)
can attach over Bolt instead of opening the files a second time.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import secrets
import socket
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from hippograph.graph.errors import DataDirInUse, GraphUnavailable

log = logging.getLogger(__name__)

_BOLT_PLUGIN = "Bolt:com.arcadedb.bolt.BoltProtocolPlugin"
USER = "root"

# ArcadeDB's own logging defaults write ./log under the working directory (wherever the CLI
# runs) and copy every INFO line to the console, into the CLIs' output. Instead: INFO and up
# to rotating files in <data_dir>/log, only SEVERE on the console. The JVM is configured once a
# process, so the first engine's directory keeps the logs of every later engine of the process.
_LOGGING = """\
handlers = java.util.logging.FileHandler, java.util.logging.ConsoleHandler
.level = INFO
io.undertow.level = WARNING
org.xnio.level = WARNING
org.jboss.level = WARNING
java.util.logging.FileHandler.level = INFO
java.util.logging.FileHandler.pattern = {pattern}
java.util.logging.FileHandler.formatter = com.arcadedb.log.LogFormatter
java.util.logging.FileHandler.limit = 10000000
java.util.logging.FileHandler.count = 5
java.util.logging.ConsoleHandler.level = SEVERE
java.util.logging.ConsoleHandler.formatter = com.arcadedb.log.LogFormatter
"""
_JVM_LOG_ARGS: list[str] = []
# Indexes whose keys are words a memory or a turn held (``Store.compact``).
WORD_INDEXES = ("Memory[ft_terms]", "Word[uid]", "Tag[uid]")


@dataclass(frozen=True)
class EngineInfo:
    """What a running embedded engine publishes for other processes."""

    pid: int
    bolt_uri: str
    database: str
    started_at: str


def read_info(data_dir: Path) -> EngineInfo | None:
    """The engine currently holding ``data_dir``, or None when no live process holds it."""
    path = data_dir / "engine.json"
    if not path.is_file() or _lock_is_free(data_dir):
        return None
    raw = json.loads(path.read_text(encoding="utf-8"))
    return EngineInfo(raw["pid"], raw["bolt_uri"], raw["database"], raw["started_at"])


def ensure_free(data_dir: Path) -> None:
    """Raise DataDirInUse, naming the holder, when a live process owns ``data_dir``."""
    if not _lock_is_free(data_dir):
        raise DataDirInUse(_held_message(data_dir.resolve()))


def credentials(data_dir: Path) -> tuple[str, str]:
    """The engine's root user and password, generated once per data directory (mode 0600)."""
    path = data_dir / "credentials.json"
    if path.is_file():
        raw = json.loads(path.read_text(encoding="utf-8"))
        return str(raw["user"]), str(raw["password"])
    data_dir.mkdir(parents=True, exist_ok=True)
    password = secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump({"user": USER, "password": password}, fh)
    return USER, password


class EmbeddedEngine:
    """An ArcadeDB server running inside this process, reached over Bolt on 127.0.0.1.

    ArcadeDB cannot run without its HTTP listener: it binds a free port on 127.0.0.1 too,
    behind the same generated root password. Nothing here uses it.

    Parameters:
        data_dir: directory holding the databases (created if missing).
        database: database name the service uses.
        bolt_port: port to bind, or 0 for a free one.
        heap: JVM max heap, e.g. "1g".
        heap_start: JVM heap committed at start (-Xms), e.g. "256m"; it grows to ``heap``.
        jvm_args: further JVM options, space-separated (the JVM is configured once a process).
        command_timeout_s: the longest one statement may run (arcadedb.command.timeout; its
            Bolt listener ignores the timeout a client asks of a transaction); None: no limit.
    """

    def __init__(
        self,
        data_dir: Path,
        *,
        database: str,
        bolt_port: int = 0,
        heap: str = "1g",
        heap_start: str = "256m",
        jvm_args: str = "",
        command_timeout_s: float | None = None,
    ):
        self.data_dir = data_dir.resolve()
        self._command_timeout_s = command_timeout_s
        self.database = database
        self._requested_port = bolt_port
        self._heap = heap
        self._heap_start = heap_start
        self._jvm_args = jvm_args.split()
        self._lock: IO[str] | None = None
        self._server: Any = None
        self._db: Any = None
        self.bolt_port = 0

    @property
    def bolt_uri(self) -> str:
        return f"bolt://127.0.0.1:{self.bolt_port}"

    def start(self) -> None:
        """Take the data-dir lock, start ArcadeDB with its Bolt plugin, create the database."""
        started = time.perf_counter()
        # Everything the process writes from here on (the engine's files and logs in this
        # JVM, engine.json, exports) is its owner's alone: memory text must not grep out of
        # the bucket files as another local user.
        os.umask(0o077)
        self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.data_dir, 0o700)
        self._take_lock()
        _owner_only(self.data_dir)
        try:
            self._start_server()
        except BaseException:
            self._release_lock()
            raise
        finally:
            _detach_from_jvm()
        self._publish()
        log.info(
            "embedded ArcadeDB at %s (data %s) started in %.1fs",
            self.bolt_uri,
            self.data_dir,
            time.perf_counter() - started,
        )

    def run_sql(self, statement: str) -> None:
        """Run one ArcadeDB SQL statement (schema DDL that its Cypher cannot express)."""
        self._db.command("sql", statement)

    def rebuild_word_indexes(self) -> None:
        """Rebuild the indexes whose keys are words of memories (full-text terms, vocabulary
        words, tag names). A deleted record's bytes leave its bucket page when it is deleted,
        but an LSM index keeps a deleted key (marked removed) until it is compacted; a rebuild
        writes the index anew and drops the old files."""
        present = self.index_names()
        for name in WORD_INDEXES:
            if name in present:
                self.run_sql(f"REBUILD INDEX `{name}`")  # a name from the fixed set above

    def index_names(self) -> set[str]:
        """The type-level indexes, named ``Type[prop,...]`` (checks and diagnostics)."""
        rows = self._db.query("sql", "SELECT name FROM schema:indexes")
        return {str(r.get("name")) for r in rows if "[" in str(r.get("name"))}

    def stop(self) -> None:
        """Stop the server and release the data directory; safe to call twice."""
        if self._server is not None:
            try:
                self._server.stop()
            finally:
                self._server = None
                self._db = None
        (self.data_dir / "engine.json").unlink(missing_ok=True)
        self._release_lock()

    def _start_server(self) -> None:
        import arcadedb_embedded as adb  # heavy: starts a JVM, so only imported when needed

        _user, password = credentials(self.data_dir)
        self.bolt_port = self._requested_port or _free_port()
        config = {
            "server_plugins": _BOLT_PLUGIN,
            "bolt_port": self.bolt_port,
            "host": "127.0.0.1",
            "http_port": _free_port(),
        }
        # The heap starts at heap_start (an -Xms in jvm_args, later, still wins) and grows to
        # heap as the store needs: committed whole from the start, the whole heap was resident
        # on an empty store.
        jvm_args = [*_log_args(self.data_dir), f"-Xms{self._heap_start}", *self._jvm_args]
        try:
            self._server = adb.ArcadeDBServer(
                str(self.data_dir / "arcadedb"),
                root_password=password,
                config=config,
                jvm_kwargs={"heap_size": self._heap, "jvm_args": jvm_args},
            )
            self._server.start()
        except Exception as exc:
            raise GraphUnavailable(
                f"could not start the embedded ArcadeDB engine on port {self.bolt_port}: {exc}"
            ) from exc
        try:
            self._db = self._server.get_database(self.database)
        except Exception:
            self._db = self._server.create_database(self.database)
        set_command_timeout(self._command_timeout_s)
        _no_rebuild_on_quiet()

    def _take_lock(self) -> None:
        handle = (self.data_dir / "hippograph.lock").open("a+", encoding="utf-8")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise DataDirInUse(_held_message(self.data_dir)) from None
        self._lock = handle

    def _release_lock(self) -> None:
        if self._lock is not None:
            fcntl.flock(self._lock, fcntl.LOCK_UN)
            self._lock.close()
            self._lock = None

    def _publish(self) -> None:
        info = {
            "pid": os.getpid(),
            "bolt_uri": self.bolt_uri,
            "database": self.database,
            "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        tmp = self.data_dir / "engine.json.tmp"
        tmp.write_text(json.dumps(info), encoding="utf-8")
        tmp.replace(self.data_dir / "engine.json")


def _owner_only(data_dir: Path) -> None:
    """Take group and other permissions off everything already in ``data_dir``: files made
    before the service kept them to their owner (credentials, database files, logs written
    0644 by older versions) would otherwise stay readable by every local user."""
    tightened = 0
    for root, dirs, files in os.walk(data_dir):
        for name in [*dirs, *files]:
            path = Path(root) / name
            try:
                mode = path.lstat().st_mode
                if stat.S_ISLNK(mode) or not mode & 0o077:
                    continue
                os.chmod(path, stat.S_IMODE(mode) & ~0o077)
                tightened += 1
            except OSError:
                log.warning("could not restrict %s to its owner", path)
    if tightened:
        log.info("restricted %d files of %s to their owner", tightened, data_dir)


def _log_args(data_dir: Path) -> list[str]:
    """JVM options that keep the engine's logs (and a JVM crash report) in ``data_dir/log``;
    the same options for every engine of the process (see _LOGGING)."""
    if not _JVM_LOG_ARGS:
        logs = data_dir / "log"
        logs.mkdir(parents=True, exist_ok=True)
        config = data_dir / "engine-logging.properties"
        pattern = str(logs / "arcadedb.log").replace("%", "%%")  # % starts a FileHandler token
        config.write_text(_LOGGING.format(pattern=pattern), encoding="utf-8")
        # Read by arcadedb_embedded when it builds the JVM's options (default ./log/...).
        os.environ.setdefault("ARCADEDB_JVM_ERROR_FILE", str(logs / "hs_err_pid%p.log"))
        _JVM_LOG_ARGS.append(f"-Djava.util.logging.config.file={config}")
    return list(_JVM_LOG_ARGS)


def _detach_from_jvm() -> None:
    """Detach the current thread from the JVM unless it is the main thread.

    The thread that starts the JVM is attached to it as a user thread named "main", and at
    exit JPype's DestroyJavaVM (run by the main thread) waits for every user thread to end.
    ``serve`` starts the engine in its lifespan, on a pool thread that never ends, so after
    Ctrl-C the process hung in ``_JTerminate`` forever (SIGTERM ended it only because the
    default action kills the process outright). A thread that calls Java again is attached
    anew, as a daemon, as JPype attaches every thread but the JVM's creator."""
    if threading.current_thread() is threading.main_thread():
        return
    import jpype

    jpype.JClass("java.lang.Thread").detach()


def _held_message(data_dir: Path) -> str:
    try:
        raw = json.loads((data_dir / "engine.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raw = {}
    pid = raw.get("pid", "unknown")
    uri = raw.get("bolt_uri", "its Bolt port")
    return (
        f"data directory {data_dir} is held by process {pid} (since {raw.get('started_at', '?')}), "
        f"whose embedded engine listens on {uri}. Stop that process, use another "
        f"HIPPOGRAPH_DATA_DIR, or connect to it instead: HIPPOGRAPH_GRAPH_URI={uri} "
        "HIPPOGRAPH_GRAPH_BACKEND=arcadedb (the hippograph CLI and worker attach to it "
        "automatically)."
    )


def _lock_is_free(data_dir: Path) -> bool:
    path = data_dir / "hippograph.lock"
    if not path.exists():
        return True
    with path.open("a+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(handle, fcntl.LOCK_UN)
        return True


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def set_command_timeout(seconds: float | None) -> None:
    """Bound every statement of this process's engine to ``seconds`` (None: no bound). It is
    ArcadeDB's global arcadedb.command.timeout, read as each command starts: the same key in
    the server's configuration never reaches its databases (a 1 s limit there let a
    cartesian MATCH run on for minutes; the global one stopped it at 1.15 s, with
    Neo.ClientError.Transaction.TransactionTimedOut)."""
    import jpype

    millis = 0 if seconds is None else max(1, round(seconds * 1000))
    jpype.JClass("com.arcadedb.GlobalConfiguration").COMMAND_TIMEOUT.setValue(millis)


def _no_rebuild_on_quiet() -> None:
    """Turn off ArcadeDB's rebuild of a vector index's whole graph 15 s after the last write
    (arcadedb.vectorIndex.inactivityRebuildTimeoutMs, default 15,000): a memory service writes
    in bursts, and every pause rebuilt all N vectors on one thread, 1.1 CPU-s after a batch at
    1,000 memories growing to 4.2 at 8,000 (linear in N), taking a core from the next batch's
    embedding. Vectors written since the last build stay exactly searchable in the index's
    delta buffer (a linear scan), and the engine rebuilds when they reach a share of the graph
    (arcadedb.vectorIndex.rebuildGraphRatio) or when scanning them costs as much as the graph
    walk (arcadedb.vectorIndex.maxDeltaScanRatio): rebuilds amortised over the writes, and
    triggered by what queries pay."""
    import jpype

    config = jpype.JClass("com.arcadedb.GlobalConfiguration")
    config.VECTOR_INDEX_INACTIVITY_REBUILD_TIMEOUT_MS.setValue(0)
