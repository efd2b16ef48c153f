"""Shared fixtures: one embedded ArcadeDB engine and one embedding model for the whole session;
each test works in its own namespace. Contract tests also run against Neo4j when
HIPPOGRAPH_TEST_NEO4J_URI (+ _USER, _PASSWORD) is set.

The fast tier (``pytest -m fast``, ``make test-fast``): every test that is not ``slow`` and needs
none of ``ENGINE_FIXTURES`` is marked ``fast`` at collection. A session that runs only fast tests
refuses to start the engine, load the model or run a subprocess (a server, a CLI command), so a
test that does so in its body fails instead of slowing the tier down."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from hippograph.graph import clock  # noqa: E402
from hippograph.graph.models.embedder import Embedder  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.graph.store.engine import EmbeddedEngine  # noqa: E402
from hippograph.graph.store.store import Store  # noqa: E402
from hippograph.settings import Settings  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
_OPEN: list[Runtime] = []
# Nodes carrying a namespace property (wiped per test namespace).
NAMESPACED_LABELS = (
    "Memory", "Tag", "Cluster", "Tombstone", "RecallSession", "Episode", "Decision",
    "RememberEvent", "Gap", "CoreBlock", "CoreChange", "Profile", "RebuildState",
    "EditEvent", "Word", "Entity", "Run", "Step", "ToolCall",
)  # fmt: skip
# Every label Hippograph writes; a Neo4j test database holding others is refused.
HIPPOGRAPH_LABELS = (
    *NAMESPACED_LABELS, "ConsolidationRun", "ConsolidationState", "JobRun", "JobLock",
)  # fmt: skip
TEST_HOSTS = "127.0.0.1,localhost,::1,testserver"
NEO4J_URI = os.environ.get("HIPPOGRAPH_TEST_NEO4J_URI", "")
NEO4J_SKIP = (
    "HIPPOGRAPH_TEST_NEO4J_URI is not set: Neo4j contract tests need a Neo4j 5.26+ server "
    "(set HIPPOGRAPH_TEST_NEO4J_URI, _USER and _PASSWORD to run them)"
)
# A test asking for one of these, directly or through another fixture, needs the graph engine,
# the embedding model or a server. Every runtime fixture (and the app's client, the jobs' store)
# depends on `embedder`; `any_runtime` reaches its runtime through getfixturevalue, and the jobs'
# autouse fixture reaches `runtime` from `namespace` the same way; `chromium` starts the browser
# tests' server.
ENGINE_FIXTURES = frozenset({"embedder", "any_runtime", "namespace", "chromium"})
# Modules whose tests start the model, an engine or a process in their own body, where no fixture
# shows it (the guard below fails a fast test that does, so one missing here is noticed).
STARTS_IN_BODY = frozenset({
    "tests/bench/test_children.py",  # kills a parent process to see its child end
    "tests/api/test_cli_imports.py",  # runs the CLI in a fresh interpreter
    "tests/client/test_layering.py",  # imports the client in a fresh interpreter
    "tests/graph/models/test_embedder.py",  # loads models of its own (other backends, caches)
    "tests/graph/test_runtime_process.py",  # engines in child processes
})  # fmt: skip
_FAST_GUARD = pytest.StashKey[pytest.MonkeyPatch]()


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        module = item.path.relative_to(ROOT).as_posix()
        if not (
            item.get_closest_marker("slow") or names & ENGINE_FIXTURES or module in STARTS_IN_BODY
        ):
            item.add_marker(pytest.mark.fast)


def pytest_collection_finish(session: pytest.Session) -> None:
    """A session of fast tests only: starting the engine, the model or a process fails the test."""
    if not session.items or any(i.get_closest_marker("fast") is None for i in session.items):
        return
    guard = pytest.MonkeyPatch()
    for owner, name, what in (
        (EmbeddedEngine, "start", "starts the embedded graph engine"),
        (Store, "open", "opens a graph store"),
        (Embedder, "load", "loads the embedding model"),
        (subprocess.Popen, "__init__", "runs a subprocess"),
    ):
        guard.setattr(owner, name, _refuse(what))
    session.config.stash[_FAST_GUARD] = guard


def _refuse(what: str) -> Callable[..., NoReturn]:
    def refuse(*args: Any, **kwargs: Any) -> NoReturn:
        pytest.fail(
            f"a fast test {what}: give it the fixture that does so (one of "
            f"{sorted(ENGINE_FIXTURES)}), mark it slow or list its module in STARTS_IN_BODY "
            "(tests/conftest.py), so that the fast tier leaves it out"
        )

    return refuse


_EXIT_STATUS = pytest.StashKey[int]()


def pytest_sessionfinish(session: pytest.Session) -> None:
    guard = session.config.stash.get(_FAST_GUARD, None)
    if guard is None:
        session.config.stash[_EXIT_STATUS] = int(session.exitstatus)
        return
    guard.undo()
    jpype = sys.modules.get("jpype")
    if jpype is not None and jpype.isJVMStarted():
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        print("\nthe fast tier started a JVM: a fast test reaches the engine", file=sys.stderr)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """A process that started the embedded engine's JVM ends here, with the session's status,
    once pytest has reported everything: the interpreter's own finalization then runs
    arcadedb_embedded's and JPype's atexit hooks, and the former crashed with SIGSEGV after a
    green run (in ``jpype.JClass``, the JVM's state at exit not its to rely on), turning the
    result into exit 2. Every test closes its engine before this point."""
    status = config.stash.get(_EXIT_STATUS, None)
    jpype = sys.modules.get("jpype")
    if status is None or jpype is None or not jpype.isJVMStarted():
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    return Embedder().load()


@pytest.fixture(scope="session")
def arcadedb_runtime(
    tmp_path_factory: pytest.TempPathFactory, embedder: Embedder
) -> Iterator[Runtime]:
    data_dir = tmp_path_factory.mktemp("arcadedb")
    # TestClient sends Host: testserver; everything else keeps the defaults.
    settings = Settings.from_env({}, data_dir=data_dir, allowed_hosts=TEST_HOSTS)
    store = Store.open(settings, attach=False)
    store.install_schema(dimensions=embedder.dimensions)
    rt = Runtime.assemble(settings, store, embedder)
    _OPEN.append(rt)
    yield rt
    rt.close()


def _neo4j_runtime(embedder: Embedder) -> Runtime:
    settings = Settings.from_env(
        {},
        graph_uri=NEO4J_URI,
        graph_user=os.environ.get("HIPPOGRAPH_TEST_NEO4J_USER", "neo4j"),
        graph_password=os.environ.get("HIPPOGRAPH_TEST_NEO4J_PASSWORD", ""),
        graph_database=os.environ.get("HIPPOGRAPH_TEST_NEO4J_DATABASE", ""),
        allowed_hosts=TEST_HOSTS,
    )
    store = Store.open(settings)
    # Like neomodel's fixture: refuse to touch a database holding data that is not ours.
    foreign = store.driver.execute_query(
        "MATCH (n) WHERE NONE(l IN labels(n) WHERE l IN $ours) RETURN count(n) AS c",
        ours=list(HIPPOGRAPH_LABELS),
        database_=store.database,
    ).records[0]["c"]
    if foreign and os.environ.get("HIPPOGRAPH_TEST_NEO4J_ALLOW_DIRTY") != "1":
        store.close()
        pytest.exit(
            f"refusing to run against {NEO4J_URI}: it holds {foreign} nodes that are not "
            "Hippograph's; use an empty database or set HIPPOGRAPH_TEST_NEO4J_ALLOW_DIRTY=1"
        )
    store.install_schema(dimensions=embedder.dimensions)
    return Runtime.assemble(settings, store, embedder)


@pytest.fixture(scope="session")
def neo4j_runtime(embedder: Embedder) -> Iterator[Runtime]:
    if not NEO4J_URI:
        pytest.skip(NEO4J_SKIP)
    rt = _neo4j_runtime(embedder)
    _OPEN.append(rt)
    yield rt
    rt.close()


@pytest.fixture(params=["arcadedb", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def any_runtime(request: pytest.FixtureRequest) -> Runtime:
    """Contract tests: run once per backend (Neo4j skipped with the reason when not configured)."""
    return request.getfixturevalue(f"{request.param}_runtime")


@pytest.fixture
def runtime(arcadedb_runtime: Runtime) -> Runtime:
    return arcadedb_runtime


@pytest.fixture(autouse=True)
def _wall_clock() -> Iterator[None]:
    """Every test starts and ends on the wall clock: one that pins the service clock
    (``graph.clock``) cannot leave it pinned for the next."""
    clock.set_now(None)
    yield
    clock.set_now(None)


@pytest.fixture
def namespace() -> Iterator[str]:
    """A namespace of the test's own; its nodes are deleted afterwards on every opened backend."""
    ns = f"test-{uuid.uuid4().hex[:12]}"
    yield ns
    for rt in _OPEN:
        wipe(rt.store, ns)


def wipe(store: Store, namespace: str) -> None:
    """Delete every node of ``namespace`` (for tests that make a second namespace)."""
    statements = [
        f"MATCH (n:{label}) WHERE n.namespace = $ns DETACH DELETE n"  # label from a fixed set
        for label in NAMESPACED_LABELS
    ]
    statements += [
        "MATCH (n:ConsolidationRun) WHERE n.scope = $ns DETACH DELETE n",
        "MATCH (n:JobRun) WHERE n.scope = $ns DETACH DELETE n",
        "MATCH (n:ConsolidationState) WHERE n.key = 'scope:' + $ns DETACH DELETE n",
    ]
    for statement in statements:
        store.driver.execute_query(statement, ns=namespace, database_=store.database)


def migration_pending(store: Store, migration: str) -> None:
    """Take away the store's marker that a start-up ``migration`` ran, as in a store written
    before it (or by another version)."""
    store.driver.execute_query(
        "MATCH (g:Migration {name: $name}) DELETE g", name=migration, database_=store.database
    )


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"
