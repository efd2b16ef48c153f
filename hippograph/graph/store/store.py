"""The store: one neo4j driver over Bolt, the backend's dialect, and the one place where driver
errors become Hippograph errors.

Usage::

    store = Store.open(settings)          # starts the embedded engine when no URI is set
    store.install_schema(dimensions=384)
    rows = store.read("memory/get", namespace="n", id="...")
    store.write_tx(lambda tx: tx.run("memory/create", rows=[...]))
    store.close()
"""

from __future__ import annotations

import atexit
import logging
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import neo4j
import numpy as np
from neo4j import GraphDatabase, ManagedTransaction
from neo4j import exceptions as neo4j_errors

from hippograph.graph.errors import (
    STOPPING,
    Conflict,
    GraphUnavailable,
    HippographError,
    QueryTimeout,
)
from hippograph.graph.store import notices, queries
from hippograph.graph.store.dialect import DIALECTS, Dialect
from hippograph.graph.store.engine import EmbeddedEngine, credentials, read_info
from hippograph.settings import Settings

log = logging.getLogger(__name__)
T = TypeVar("T")
EMBEDDED_DATABASE = "hippograph"
Row = dict[str, Any]
# Tries of an auto-commit read that failed transiently.
READ_ATTEMPTS = 3
# A transaction that failed transiently (ArcadeDB: another transaction changed the same record
# or page first; Neo4j: a deadlock) is run again after a pause drawn from [0, RETRY_BASE_S x
# 2^attempt], at most RETRY_CAP_S, until TX_RETRY_S have passed. The driver's own loop
# (execute_write) pauses 1 s, then 2 s, 4 s... (+-20%): under 8 clients (bench/load.py) 12-14
# transactions a minute paid at least 0.8 s each for a conflict their retry settled at once.
RETRY_BASE_S = 0.01
RETRY_CAP_S = 0.5
TX_RETRY_S = 30.0
STREAM_FETCH = 2000  # rows a streamed read asks the server for at a time
# How long closing the store waits for statements still running (background reads).
CLOSE_WAIT_S = 10.0
# Once a stop began (``Store.drain``), how long a transaction already running may go on before
# its next statement ends it (rolled back): a batch of 100 memories holds one for seconds.
DRAIN_S = 3.0


class GraphError(HippographError):
    """A graph failure nobody expected (a query bug, a server fault): logged and masked."""

    code = "GRAPH_ERROR"


# The codes of a statement stopped for running too long: Neo4j's, for its own limit and for
# the one the client asked; ArcadeDB's, for arcadedb.command.timeout.
TIMED_OUT_CODES = frozenset({
    "Neo.ClientError.Transaction.TransactionTimedOut",
    "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration",
})  # fmt: skip


# A record a statement reached had been deleted by a transaction that committed meanwhile
# (Neo4j's code; ArcadeDB's Bolt reports its RecordNotFoundException under it too).
ENTITY_NOT_FOUND = "Neo.ClientError.Statement.EntityNotFound"


def deleted_underneath(error: BaseException) -> bool:
    """True when ``error`` says a record vanished under a statement: another transaction
    deleted what it had found. Work that re-reads before it writes may run again."""
    cause = error.__cause__ if isinstance(error, GraphError) else error
    return isinstance(cause, neo4j_errors.Neo4jError) and cause.code == ENTITY_NOT_FOUND


@contextmanager
def mapped_errors(timeout_s: float | None = None) -> Iterator[None]:
    """Translate driver exceptions to the Hippograph tree (the single mapping boundary).
    ``timeout_s``: the statement timeout in force, named by a QueryTimeout."""
    try:
        yield
    except HippographError:
        raise
    except neo4j_errors.ConnectionAcquisitionTimeoutError as exc:
        raise QueryTimeout(
            f"no connection to the graph came free within {timeout_s} s: {exc}",
            timeout_s=timeout_s,
        ) from exc
    except (neo4j_errors.ServiceUnavailable, neo4j_errors.SessionExpired) as exc:
        raise GraphUnavailable(f"the graph is unreachable: {exc}") from exc
    except neo4j_errors.ConstraintError as exc:
        raise Conflict(f"a uniqueness rule of the graph was violated: {exc.message}") from exc
    except neo4j_errors.Neo4jError as exc:
        if exc.code not in TIMED_OUT_CODES:
            raise GraphError(f"graph query failed: {exc.code}: {exc.message}") from exc
        raise QueryTimeout(
            f"a graph statement ran longer than HIPPOGRAPH_QUERY_TIMEOUT_S allows ({timeout_s} "
            f"s) and was stopped; nothing it wrote was kept: {exc.message}",
            timeout_s=timeout_s,
        ) from exc
    except neo4j_errors.DriverError as exc:
        raise GraphUnavailable(f"graph driver error: {exc}") from exc


_SCALARS = frozenset({str, int, float, bool, type(None)})


class Vector(list[float]):
    """An embedding as a statement parameter: a list of floats the driver sends as is but
    whose repr is its length. The driver formats every statement's parameters for its debug
    log even when that log is off (neo4j 6.4, ``Bolt5x0.run``): ~0.2 ms a query vector, and
    a third of the driver's time on a batch of 1,000 new memories."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"<vector of {len(self)} floats>"


def vector(values: Any) -> Vector:
    """``values`` (a numpy array or any sequence of numbers) as a ``Vector`` parameter. The
    conversion to Python floats happens in numpy (float32 widens exactly): a generator over
    the elements took a tenth of a batch's non-embedding time."""
    return Vector(np.asarray(values, dtype=np.float64).tolist())


def row_of(record: neo4j.Record) -> Row:
    """The record as ``Record.data()`` makes it (nodes become property maps, and so on), without
    that method's cost on long lists of numbers: it inspects every element of every list, about
    1.5 us a float, so 100,000 embeddings took a minute to read instead of a few seconds."""
    return {key: plain(value) for key, value in zip(record.keys(), record.values(), strict=True)}


def plain(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list:
        if set(map(type, value)) <= _SCALARS:  # the common case (embeddings), checked in C
            return value
        return [x if type(x) in _SCALARS else plain(x) for x in value]
    if kind is dict:
        return {k: v if type(v) in _SCALARS else plain(v) for k, v in value.items()}
    # Nodes, relationships, paths, temporal and spatial values: exactly as data() has them.
    return neo4j.Record([("value", value)]).data()["value"]  # type: ignore[no-untyped-call]


class Tx:
    """A transaction handle that only runs named statements; ``statement`` is the one running
    (or last run), so a failed transaction can say where it failed."""

    def __init__(
        self,
        tx: neo4j.Transaction | ManagedTransaction,
        dialect: Dialect,
        before: Callable[[], None] | None = None,
    ) -> None:
        self._tx = tx
        self._dialect = dialect
        self._before = before  # raises to end the transaction (``Store.drain``)
        self.statement = "BEGIN"

    def run(self, name: str, **params: Any) -> list[Row]:
        if self._before is not None:
            self._before()
        self.statement = name
        return run_named(self._tx, self._dialect, name, params)


def run_named(
    runner: neo4j.Transaction | ManagedTransaction | neo4j.Session,
    dialect: Dialect,
    name: str,
    params: Row,
    timeout: float | None = None,
) -> list[Row]:
    """Run the named statement of ``dialect`` on a transaction or (auto-commit, bounded by
    ``timeout`` seconds) a session."""
    text, values = statement(dialect, name, params)
    if isinstance(runner, neo4j.Session):
        query = neo4j.Query(text, timeout=timeout)
        return [row_of(record) for record in runner.run(query, values)]
    return [row_of(record) for record in runner.run(text, values)]


def begin(session: neo4j.Session, timeout: float | None) -> neo4j.Transaction:
    """Open a transaction whose BEGIN goes out with its first statement instead of as a round
    trip of its own, as the driver's ``execute_query`` does (its private ``_pipelined_begin``
    flag; a driver without it sends BEGIN alone). A write of one statement then costs two
    round trips (BEGIN+RUN+PULL, COMMIT) instead of three; a BEGIN that fails fails that
    statement, which the transaction's retry loop handles as any other (docs/research/runs.md).
    """
    flag = getattr(session, "_pipelined_begin", None)
    if flag is None:
        return session.begin_transaction(timeout=timeout)
    with flag:
        return session.begin_transaction(timeout=timeout)


class Retries:
    """How many transactions were run again, by the statement that failed (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.by_statement: Counter[str] = Counter()

    def add(self, statement: str) -> None:
        with self._lock:
            self.by_statement[statement] += 1

    def total(self) -> int:
        with self._lock:
            return sum(self.by_statement.values())


def retry_pause(attempt: int) -> float:
    """Seconds to wait before running a transaction again for the ``attempt``-th time (from
    1): random ("full jitter"), so writers that collided do not collide again in step."""
    return random.uniform(0, min(RETRY_CAP_S, RETRY_BASE_S * 2**attempt))


def statement(dialect: Dialect, name: str, params: Row) -> tuple[str, Row]:
    """The text of the named statement for ``dialect`` and its parameters, the dialect's own
    (index names) included."""
    return queries.load(name, dialect.name).text, {**dialect.params(), **params}


class EngineOwner:
    """The process whose embedded engine an attached store talks to, and whether it lives."""

    def __init__(self, data_dir: Path, pid: int) -> None:
        self.data_dir, self.pid = data_dir.resolve(), pid
        self.gone = False

    def check(self) -> None:
        """Raise OwnerGone once the owner no longer holds the data directory (for good: the
        engine a restarted server starts listens on another port)."""
        if not self.gone:
            info = read_info(self.data_dir)
            self.gone = info is None or info.pid != self.pid
        if self.gone:
            raise OwnerGone(
                f"the server that held {self.data_dir} (process {self.pid}) has stopped, and "
                "with it the graph engine this command was attached to; start `hippograph "
                "serve` again (this command attaches to it), or run the command with no server"
            )


class OwnerGone(GraphUnavailable):
    """The process whose engine an attached store used has stopped (or been replaced)."""


class Store:
    """Graph access for one backend. Open once (the app lifespan, a CLI command, a job)."""

    def __init__(
        self,
        driver: neo4j.Driver,
        dialect: Dialect,
        *,
        database: str | None,
        engine: EmbeddedEngine | None = None,
        location: str = "",
        owner: EngineOwner | None = None,
        timeout_s: float | None = None,
    ) -> None:
        """timeout_s: the longest a transaction or statement may run, asked of the server
        (``HIPPOGRAPH_QUERY_TIMEOUT_S``; None: the server's own limit)."""
        self.driver = driver
        self.dialect = dialect
        self.database = database
        self.engine = engine
        self.location = location
        self.owner = owner
        self.timeout_s = timeout_s
        self.retries = Retries()
        # Statements in flight (every access goes through ``_mapped``), so that ``close`` waits
        # for them: background refreshes (term counts, speaker caches) may still be reading
        # when the owner closes, and closing the driver under them failed inside the driver.
        self._busy = threading.Condition()
        self._in_flight = 0
        self._closing = False
        self._draining = False  # a stop began: only ``_keep`` starts new statements (``drain``)
        self._keep: threading.Thread | None = None
        self._drained_at = 0.0  # monotonic: when transactions in flight at the stop must end

    @classmethod
    def open(cls, settings: Settings, *, attach: bool = True) -> Store:
        """Connect to Neo4j, attach to a running embedded engine, or start one.

        attach: when the data directory is held by another live process, connect to its engine
            over Bolt (True) or raise DataDirInUse (False, e.g. for `serve`).
        """
        if not settings.graph.embedded:
            auth = (settings.graph.user, settings.graph.password)
            driver = _driver(settings, settings.graph.uri, auth)
            dialect = DIALECTS[settings.graph.backend]
            database = settings.graph.database or (
                EMBEDDED_DATABASE if dialect.name == "arcadedb" else None
            )
            store = cls(
                driver, dialect, database=database, location=settings.graph.uri,
                timeout_s=settings.graph.query_timeout_s,
            )  # fmt: skip
            store.ping()
            return store
        info = read_info(settings.graph.data_dir)
        if info is not None:
            if not attach:
                engine = EmbeddedEngine(
                    settings.graph.data_dir, database=EMBEDDED_DATABASE,
                    heap=settings.graph.engine_heap, heap_start=settings.graph.engine_heap_start,
                    jvm_args=settings.graph.engine_jvm_args,
                )  # fmt: skip
                engine.start()  # raises DataDirInUse with the holder's details
            user, password = credentials(settings.graph.data_dir)
            driver = _driver(settings, info.bolt_uri, (user, password))
            log.info("attached to the embedded engine of process %s at %s", info.pid, info.bolt_uri)
            store = cls(
                driver,
                DIALECTS["arcadedb"],
                database=info.database,
                location=info.bolt_uri,
                owner=EngineOwner(settings.graph.data_dir, info.pid),
                timeout_s=settings.graph.query_timeout_s,
            )
            store.ping()
            return store
        engine = EmbeddedEngine(
            settings.graph.data_dir,
            database=settings.graph.database or EMBEDDED_DATABASE,
            bolt_port=settings.graph.bolt_port,
            heap=settings.graph.engine_heap,
            heap_start=settings.graph.engine_heap_start,
            jvm_args=settings.graph.engine_jvm_args,
            command_timeout_s=settings.graph.query_timeout_s,
        )
        engine.start()
        user, password = credentials(settings.graph.data_dir)
        driver = _driver(settings, engine.bolt_uri, (user, password))
        store = cls(
            driver,
            DIALECTS["arcadedb"],
            database=engine.database,
            engine=engine,
            location=engine.bolt_uri,
            timeout_s=settings.graph.query_timeout_s,
        )
        try:
            store.ping()
        except BaseException:
            store.close()
            raise
        # A process that exits without closing the store would hang at exit: the JVM waits
        # for the engine's Bolt threads, which wait on the driver's still open connections.
        # Closed first at exit (atexit runs the latest registered first, and the engine's
        # Java bridge registered its own shutdown when the engine started).
        atexit.register(store.close)
        return store

    @contextmanager
    def _mapped(self, *, while_draining: bool = False) -> Iterator[None]:
        """``mapped_errors``, and for a store attached to another process's engine, a clear
        error as soon as that process is known to have stopped: without it, each statement of
        a long job retried its connection for the driver's 30 s, one after the other."""
        with self._busy:
            if self._closing:
                raise GraphUnavailable(f"the graph store {self.location or ''} is closed".strip())
            if self._draining and not while_draining and not self._kept():
                raise GraphUnavailable(STOPPING)
            self._in_flight += 1
        try:
            if self.owner is not None:
                self.owner.check()
            try:
                with mapped_errors(self.timeout_s):
                    yield
            except GraphUnavailable:
                if self.owner is not None:
                    self.owner.check()
                raise
        finally:
            with self._busy:
                self._in_flight -= 1
                self._busy.notify_all()

    def ping(self) -> None:
        """One round trip to the graph, as a read (a cluster may answer it from any member)."""
        with self._mapped(while_draining=True):  # /healthz stays true while the stop drains
            self.driver.execute_query(
                "RETURN 1 AS ok", database_=self.database, routing_=neo4j.RoutingControl.READ
            )

    def drain(self, keep: threading.Thread | None = None) -> None:
        """The first step of a stop: statements and transactions already running go on, new
        ones are refused (``GraphUnavailable``, before anything of theirs is written) but those
        of ``keep`` (the thread that writes what recalls queued). Returns at once."""
        with self._busy:
            self._draining, self._keep = True, keep
            self._drained_at = time.monotonic() + DRAIN_S

    def _kept(self) -> bool:
        return threading.current_thread() is self._keep

    def _overtime(self) -> None:
        """Before each statement of a transaction: past ``DRAIN_S`` into a stop, end it (it
        rolls back) rather than hold the stop up."""
        if self._draining and time.monotonic() > self._drained_at and not self._kept():
            raise GraphUnavailable(
                f"the service is stopping: a transaction still running {DRAIN_S:g} s after the "
                "stop was asked for was rolled back; retry"
            )

    def close(self, wait_s: float = CLOSE_WAIT_S) -> None:
        """Refuse new statements, wait up to ``wait_s`` for those in flight, then close the
        driver (a transaction still open is rolled back) and stop the embedded engine."""
        atexit.unregister(self.close)
        with self._busy:
            self._closing = True
            if not self._busy.wait_for(lambda: self._in_flight == 0, timeout=wait_s):
                log.warning(
                    "closing the graph store with %d statements still running", self._in_flight
                )
        try:
            self.driver.close()
        finally:
            if self.engine is not None:
                self.engine.stop()

    def compact(self) -> bool:
        """Rebuild the embedded engine's indexes whose keys are words (``engine.WORD_INDEXES``),
        so a deleted key leaves the disk (an index keeps it until rebuilt); False when this
        process does not own the engine (Neo4j, or attached to another process's engine)."""
        if self.engine is None:
            return False
        with self._mapped():
            self.engine.rebuild_word_indexes()
        return True

    def install_schema(self, *, dimensions: int) -> None:
        """Create constraints and indexes idempotently (every step uses IF NOT EXISTS)."""
        for name in self.dialect.schema:
            query = queries.load(name, self.dialect.name)
            text = queries.render(query, dimensions=dimensions)
            with self._mapped():
                if query.language == "sql":
                    if self.engine is None:
                        # An attached process: the owning process installed the schema.
                        continue
                    for statement in sql_statements(text):
                        self.engine.run_sql(statement)
                else:
                    self.driver.execute_query(text, database_=self.database)

    def read(self, name: str, /, **params: Any) -> list[Row]:
        """Run a named read-only statement as an auto-commit query.

        One statement needs no explicit transaction, and skipping BEGIN/COMMIT saves a round
        trip: about 1 ms a statement on the embedded engine, where a recall runs ten. A
        transient failure (a deadlock victim, a leader switch) is retried like a managed read,
        and so is a record deleted under the statement by a write that committed meanwhile (a
        rebuild's wipe, a forget): the read runs again on what is there now. Before, listing
        memories while a rebuild wiped them answered "Unexpected error" (EntityNotFound).
        """
        for attempt in range(READ_ATTEMPTS):
            try:
                with (
                    self._mapped(),
                    self.driver.session(
                        database=self.database, default_access_mode=neo4j.READ_ACCESS
                    ) as session,
                ):
                    return run_named(session, self.dialect, name, params, self.timeout_s)
            except GraphError as exc:
                cause = exc.__cause__
                retryable = isinstance(cause, neo4j_errors.Neo4jError) and (
                    cause.is_retryable() or deleted_underneath(exc)
                )
                if attempt + 1 == READ_ATTEMPTS or not retryable:
                    raise
                time.sleep(0.05 * 2**attempt)
        raise AssertionError("unreachable")

    def stream(self, name: str, /, **params: Any) -> Iterator[Row]:
        """Run a named read-only statement as an auto-commit query and yield its rows as they
        arrive, so a scan of the whole graph is never held in memory at once. Not retried: a
        failure after the first row would repeat rows already consumed."""
        with (
            self._mapped(),
            self.driver.session(
                database=self.database, default_access_mode=neo4j.READ_ACCESS,
                fetch_size=STREAM_FETCH,
            ) as session,
        ):  # fmt: skip
            text, values = statement(self.dialect, name, params)
            for record in session.run(neo4j.Query(text, timeout=self.timeout_s), values):
                yield row_of(record)

    def write(self, name: str, /, **params: Any) -> list[Row]:
        """Run a named statement in its own write transaction (retried on transient errors)."""
        return self.write_tx(lambda tx: tx.run(name, **params))

    def write_tx(self, work: Callable[[Tx], T]) -> T:
        """Run ``work`` in one write transaction: all its statements commit together or none.
        ``work`` may run more than once (see ``_transaction``)."""
        return self._transaction(neo4j.WRITE_ACCESS, work)

    def read_tx(self, work: Callable[[Tx], T]) -> T:
        return self._transaction(neo4j.READ_ACCESS, work)

    def _transaction(self, mode: str, work: Callable[[Tx], T]) -> T:
        """Run ``work`` in a transaction of ``mode`` bounded by ``timeout_s``, and again while
        it fails transiently (another writer changed the same record first), for at most
        TX_RETRY_S with short random pauses (``retry_pause``). Each retry is counted in
        ``retries`` and logged with the statement that failed."""
        started = time.monotonic()
        attempt = 0
        while True:
            tx: Tx | None = None
            try:
                with (
                    self._mapped(),
                    self.driver.session(database=self.database, default_access_mode=mode) as s,
                    begin(s, self.timeout_s) as raw,
                ):
                    tx = Tx(raw, self.dialect, self._overtime)
                    result = work(tx)
                    tx.statement = "COMMIT"
                    raw.commit()
                    return result
            except (GraphError, GraphUnavailable) as exc:
                cause = exc.__cause__
                if not isinstance(cause, neo4j_errors.Neo4jError | neo4j_errors.DriverError):
                    raise
                if not cause.is_retryable() or time.monotonic() - started > TX_RETRY_S:
                    raise
                attempt += 1
                where = tx.statement if tx is not None else "BEGIN"
                self.retries.add(where)
                pause = retry_pause(attempt)
                log.info(
                    "transaction retried (attempt %d, in %.0f ms): %s failed: %s",
                    attempt + 1, pause * 1000, where, _first_line(cause),
                )  # fmt: skip
                time.sleep(pause)


def _first_line(error: BaseException) -> str:
    """What a driver error says, without the GQL status the driver repeats after it."""
    message = getattr(error, "message", None) or str(error)
    code = getattr(error, "code", None)
    return f"{code}: {message}" if code else str(message)


def _driver(settings: Settings, uri: str, auth: tuple[str, str]) -> neo4j.Driver:
    """A driver for ``uri`` that asks the server not to send the notifications
    ``settings.graph.disabled_notifications`` names nor any under
    ``settings.graph.notifications_min_severity`` (Bolt 5.2+: Neo4j 5.7+ and ArcadeDB speak it),
    logs those it gets once each (``notices``), and waits for a pooled connection at most
    ``settings.graph.query_timeout_s``."""
    notices.install()
    options: dict[str, Any] = {
        # A request waits for a free connection no longer than a statement may run.
        "connection_acquisition_timeout": settings.graph.query_timeout_s,
        "notifications_min_severity": neo4j.NotificationMinimumSeverity(
            settings.graph.notifications_min_severity
        ),
    }
    disabled = settings.graph.disabled_notifications
    if disabled:
        options["notifications_disabled_classifications"] = [
            neo4j.NotificationDisabledClassification(name) for name in disabled
        ]
    return GraphDatabase.driver(uri, auth=auth, **options)


def sql_statements(text: str) -> list[str]:
    """The statements of an ArcadeDB SQL schema file: ``--`` comment lines dropped, split on
    ``;`` at line ends."""
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";\n") if s.strip().rstrip(";").strip()]
