"""Shared fixtures: one embedded ArcadeDB engine and one embedding model for the whole session;
each test works in its own namespace. Contract tests also run against Neo4j when
HIPPOGRAPH_TEST_NEO4J_URI (+ _USER, _PASSWORD) is set."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

from hippograph.graph import clock  # noqa: E402
from hippograph.graph.models.embedder import Embedder  # noqa: E402
from hippograph.graph.runtime import Runtime  # noqa: E402
from hippograph.graph.store.store import Store  # noqa: E402
from hippograph.settings import Settings  # noqa: E402

_OPEN: list[Runtime] = []
# Nodes carrying a namespace property (wiped per test namespace).
NAMESPACED_LABELS = (
    "Memory", "Tag", "Cluster", "Tombstone", "RecallSession", "Episode", "Decision",
    "RememberEvent", "Gap", "CoreBlock", "CoreChange", "Profile", "RebuildState",
    "EditEvent", "Word",
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
