"""Access control through the real app: API keys, roles, namespace binding, typed refusals that
touch nothing, ids of another namespace indistinguishable from missing ones, the audit trail,
the Host check, CORS, introspection and job-run scoping.

Each test's app keeps its keys and audit trail in its own directory (``tmp_path``), so the
session's engine (and every other test) stays in open mode."""

from __future__ import annotations

import os
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from hippograph.api import cli
from hippograph.api.access import FIELD_ROLES
from hippograph.api.app import create_app
from hippograph.api.keys import KeyStore
from hippograph.api.schema import schema
from hippograph.graph import clock
from hippograph.graph.runtime import Runtime
from hippograph.graph.store.engine import EmbeddedEngine, credentials
from hippograph.graph.upkeep import jobruns
from tests.conftest import wipe

REMEMBER = """mutation($ns: String!, $c: String!) {
  remember(namespace: $ns, memory: {content: $c}) { memory { id } } }"""
MEMORIES = "query($ns: String!) { memories(namespace: $ns, first: 50) { items { id } } }"


def gql(
    client: TestClient, query: str, token: str | None = None, **variables: Any
) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.post(
        "/graphql", json={"query": query, "variables": variables}, headers=headers
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def code(body: dict[str, Any]) -> str | None:
    errors = body.get("errors") or []
    return str(errors[0]["extensions"]["code"]) if errors else None


@pytest.fixture
def client(runtime: Runtime, tmp_path: Path) -> Iterator[TestClient]:
    settings = runtime.settings.with_(data_dir=tmp_path)
    with TestClient(create_app(settings, runtime=runtime)) as c:
        yield c


@pytest.fixture
def two(runtime: Runtime) -> Iterator[tuple[str, str]]:
    names = (f"acl-a-{uuid.uuid4().hex[:8]}", f"acl-b-{uuid.uuid4().hex[:8]}")
    yield names
    for ns in names:
        wipe(runtime.store, ns)


def create_key(client: TestClient, role: str, namespaces: list[str], admin: str | None) -> str:
    body = gql(
        client,
        """mutation($r: Role!, $n: [String!]!) {
          createKey(name: "t", role: $r, namespaces: $n) { token key { id role namespaces } } }""",
        admin,
        r=role.upper(),
        n=namespaces,
    )
    assert code(body) is None, body
    issued = body["data"]["createKey"]
    assert issued["key"]["namespaces"] == namespaces
    assert issued["token"].startswith(f"hg_{issued['key']['id']}_")
    return str(issued["token"])


def ids(client: TestClient, token: str | None, ns: str) -> set[str]:
    body = gql(client, MEMORIES, token, ns=ns)
    assert code(body) is None, body
    return {m["id"] for m in body["data"]["memories"]["items"]}


def test_key_lifecycle_create_use_rotate_revoke(
    client: TestClient, two: tuple[str, str], tmp_path: Path
) -> None:
    a, _ = two
    admin = create_key(client, "admin", ["*"], None)  # open mode: the first key bootstraps
    # Keys exist now: no key is refused, before anything runs.
    assert code(gql(client, REMEMBER, ns=a, c="Ada likes tea")) == "UNAUTHENTICATED"
    writer = create_key(client, "write", [a], admin)
    assert code(gql(client, REMEMBER, writer, ns=a, c="Ada likes tea")) is None
    # Only salted hashes are stored: no token appears in the file, which is the owner's alone.
    stored = (tmp_path / "keys.json").read_text()
    assert writer.split("_", 2)[2] not in stored and admin.split("_", 2)[2] not in stored
    assert stat.S_IMODE(os.stat(tmp_path / "keys.json").st_mode) == 0o600
    key_id = writer.split("_")[1]
    listed = gql(client, "{ keys { id role namespaces revokedAt } }", admin)["data"]["keys"]
    assert {"id": key_id, "role": "WRITE", "namespaces": [a], "revokedAt": None} in listed

    rotate = "mutation($id: ID!) { rotateKey(id: $id) { token key { rotatedAt } } }"
    rotated = gql(client, rotate, admin, id=key_id)["data"]["rotateKey"]
    assert rotated["key"]["rotatedAt"] and rotated["token"] != writer
    assert code(gql(client, MEMORIES, writer, ns=a)) == "UNAUTHENTICATED"
    assert len(ids(client, rotated["token"], a)) == 1

    revoke = "mutation($id: ID!) { revokeKey(id: $id) { revokedAt } }"
    revoked = gql(client, revoke, admin, id=key_id)
    assert revoked["data"]["revokeKey"]["revokedAt"]
    assert code(gql(client, MEMORIES, rotated["token"], ns=a)) == "UNAUTHENTICATED"
    assert code(gql(client, MEMORIES, "hg_000000000000_" + "x" * 43, ns=a)) == "UNAUTHENTICATED"
    assert code(gql(client, MEMORIES, "not-a-key", ns=a)) == "UNAUTHENTICATED"


def test_each_role_against_each_kind_of_field(client: TestClient, two: tuple[str, str]) -> None:
    a, b = two
    admin = create_key(client, "admin", ["*"], None)
    tokens = {role: create_key(client, role, [a], admin) for role in ("read", "write", "admin")}
    seeded = gql(client, REMEMBER, admin, ns=a, c="Bob plays the cello")
    assert code(seeded) is None
    fields = {
        "read": (MEMORIES, {"ns": a}),
        "write": (REMEMBER, {"ns": a, "c": "Bob tunes pianos"}),
        "admin": ("query($ns: String) { audit(namespace: $ns) { operation } }", {"ns": a}),
        "global": ("query { audit { operation } }", {}),
        "keys": ("{ keys { id } }", {}),
        "consolidate-all": ("mutation { consolidate(dryRun: true) { scope } }", {}),
    }
    allowed = {
        "read": {"read"},
        "write": {"read", "write"},
        "admin": {"read", "write", "admin"},
    }
    for role, token in tokens.items():
        for kind, (query, variables) in fields.items():
            before = ids(client, admin, a)
            body = gql(client, query, token, **variables)
            if kind in allowed[role]:
                assert code(body) is None, (role, kind, body)
            else:
                assert code(body) == "FORBIDDEN", (role, kind, body)
                assert body["data"] is None or all(v is None for v in body["data"].values())
                assert ids(client, admin, a) == before  # nothing was written
        # Another namespace is out of reach whatever the role.
        assert code(gql(client, MEMORIES, token, ns=b)) == "FORBIDDEN"
        assert code(gql(client, REMEMBER, token, ns=b, c="Eve was here")) == "FORBIDDEN"
    assert ids(client, admin, b) == set()
    # The admin over * reaches everything.
    assert code(gql(client, "query { audit { operation } }", admin)) is None
    assert code(gql(client, "mutation { consolidate(dryRun: true) { scope } }", admin)) is None


def test_a_prefix_binding_covers_its_namespaces_only(client: TestClient, runtime: Runtime) -> None:
    team = f"team-{uuid.uuid4().hex[:6]}"
    admin = create_key(client, "admin", ["*"], None)
    token = create_key(client, "write", [f"{team}:*"], admin)
    try:
        assert code(gql(client, REMEMBER, token, ns=f"{team}:notes", c="Cy owns a kayak")) is None
        assert code(gql(client, REMEMBER, token, ns=f"{team}x", c="no")) == "FORBIDDEN"
        assert code(gql(client, REMEMBER, token, ns=team, c="no")) == "FORBIDDEN"
        assert ids(client, admin, f"{team}x") == set()
    finally:
        for ns in (f"{team}:notes", f"{team}x", team):
            wipe(runtime.store, ns)


BY_ID = {
    "forget": "mutation($ns: String!, $id: ID!) { forget(namespace: $ns, id: $id) }",
    "supersede": """mutation($ns: String!, $id: ID!, $mine: ID!) {
        supersede(namespace: $ns, oldId: $id, newId: $mine) { id } }""",
    "link": """mutation($ns: String!, $id: ID!, $mine: ID!) {
        link(namespace: $ns, fromId: $mine, toId: $id, relation: RELATES_TO) { weight } }""",
    "history": """query($ns: String!, $id: ID!) {
        history(namespace: $ns, memoryId: $id) { memoryId } }""",
    "feedback": """mutation($ns: String!, $id: ID!) {
        feedback(namespace: $ns, memoryId: $id, helpful: true) { confidence } }""",
    "memory": "query($ns: String!, $id: ID!) { memory(namespace: $ns, id: $id) { id } }",
    "tag": """mutation($ns: String!, $id: ID!) {
        tag(namespace: $ns, id: $id, tags: ["x"]) { id } }""",
}


def test_ids_of_another_namespace_behave_like_missing_ids(
    client: TestClient, two: tuple[str, str], runtime: Runtime
) -> None:
    a, b = two
    admin = create_key(client, "admin", ["*"], None)
    token = create_key(client, "write", [a], admin)
    mine = gql(client, REMEMBER, token, ns=a, c="Dana keeps bees")["data"]["remember"]["memory"]
    theirs = gql(client, REMEMBER, admin, ns=b, c="Eli keeps goats")["data"]["remember"]["memory"]
    missing = str(uuid.uuid4())
    before_b = _props(runtime, b)
    for name, query in BY_ID.items():
        variables = {"ns": a, "mine": mine["id"]}
        foreign = gql(client, query, token, **variables, id=theirs["id"])
        absent = gql(client, query, token, **variables, id=missing)
        assert code(foreign) == code(absent) == "NOT_FOUND", (name, foreign, absent)
        shown = foreign["errors"][0]["message"].replace(theirs["id"], "<id>")
        assert shown == absent["errors"][0]["message"].replace(missing, "<id>"), name
        # Naming the other namespace is refused outright.
        assert code(gql(client, query, token, **{**variables, "ns": b}, id=theirs["id"])) in (
            "FORBIDDEN",
        )
    assert _props(runtime, b) == before_b  # B's memory unchanged by any of it


def _props(runtime: Runtime, ns: str) -> list[dict[str, Any]]:
    rows = runtime.store.driver.execute_query(
        "MATCH (m:Memory {namespace: $ns}) RETURN m.id AS id, m.status AS status, "
        "m.confidence AS confidence, m.content AS content ORDER BY id",
        ns=ns,
        database_=runtime.store.database,
    ).records
    return [dict(r) for r in rows]


def test_audit_records_who_what_where_and_never_content(
    client: TestClient, two: tuple[str, str], tmp_path: Path
) -> None:
    a, _ = two
    admin = create_key(client, "admin", ["*"], None)
    token = create_key(client, "write", [a], admin)
    key_id = token.split("_")[1]
    gql(client, REMEMBER, token, ns=a, c="Fay's password is hunter2-Xk9!pq and she likes plums")
    gql(client, MEMORIES, token, ns=a)  # reads are not audited
    gql(client, REMEMBER, token, ns="elsewhere", c="refused")
    query = "query($ns: String) { audit(namespace: $ns) { at keyId operation namespace outcome } }"
    entries = gql(client, query, admin, ns=a)["data"]["audit"]
    assert [(e["keyId"], e["operation"], e["outcome"]) for e in entries] == [
        (key_id, "remember", "ok")
    ]
    everything = gql(client, "{ audit(limit: 50) { keyId operation namespace outcome } }", admin)
    rows = {(e["keyId"], e["operation"], e["namespace"], e["outcome"])
            for e in everything["data"]["audit"]}  # fmt: skip
    assert ("open", "createKey", "*", "ok") in rows
    assert (key_id, "remember", "elsewhere", "FORBIDDEN") in rows
    text = (tmp_path / "audit.jsonl").read_text()
    assert "plums" not in text and "hunter2" not in text and token not in text
    assert stat.S_IMODE(os.stat(tmp_path / "audit.jsonl").st_mode) == 0o600


def test_job_runs_are_scoped_and_cross_namespace_work_is_admin_only(
    client: TestClient, two: tuple[str, str], runtime: Runtime
) -> None:
    a, b = two
    admin = create_key(client, "admin", ["*"], None)
    reader = create_key(client, "read", [a], admin)
    now = clock.now()
    made = []
    for scope in (a, b, jobruns.ALL_SCOPE):
        run = jobruns.start_run(
            runtime.store, "decay", f"test-{scope}", trigger="test", scope=scope, now=now,
            as_of="2024-01-01T00:00:00Z",
        )  # fmt: skip
        made.append(run.id)
    try:
        query = "{ jobRuns(first: 100) { id scope } }"
        seen = {r["id"]: r["scope"] for r in gql(client, query, reader)["data"]["jobRuns"]}
        assert made[0] in seen and made[1] not in seen and made[2] not in seen
        assert set(seen.values()) == {a}
        everything = {r["id"] for r in gql(client, query, admin)["data"]["jobRuns"]}
        assert set(made) <= everything
        writer = create_key(client, "write", [a], admin)
        refused = gql(client, "mutation { consolidate(dryRun: true) { scope } }", writer)
        assert code(refused) == "FORBIDDEN"
        mine = "mutation($ns: String) { consolidate(namespace: $ns, dryRun: true) { scope } }"
        own = gql(client, mine, writer, ns=a)
        assert code(own) is None
        assert code(gql(client, "mutation { runJob(name: DECAY) { id } }", writer)) == "FORBIDDEN"
    finally:
        runtime.store.driver.execute_query(
            "MATCH (r:JobRun) WHERE r.id IN $ids DETACH DELETE r",
            ids=made,
            database_=runtime.store.database,
        )


def test_host_header_cors_and_introspection(runtime: Runtime, tmp_path: Path) -> None:
    settings = runtime.settings.with_(data_dir=tmp_path)
    with TestClient(create_app(settings, runtime=runtime)) as c:
        evil = c.post(
            "/graphql", json={"query": "{ health { ok } }"}, headers={"Host": "evil.example"}
        )
        assert evil.status_code == 421
        fine = c.post(
            "/graphql", json={"query": "{ __typename }"}, headers={"Host": "127.0.0.1:8000"}
        )
        assert fine.status_code == 200
        preflight = c.options(
            "/graphql",
            headers={"Origin": "http://app.example", "Access-Control-Request-Method": "POST"},
        )
        assert "access-control-allow-origin" not in preflight.headers  # CORS off by default
        assert code(gql(c, "{ __schema { queryType { name } } }")) is None
    closed = settings.with_(introspection=False, cors_origins="http://app.example")
    with TestClient(create_app(closed, runtime=runtime)) as c:
        assert code(gql(c, "{ __schema { queryType { name } } }")) == "GRAPHQL_VALIDATION_FAILED"
        assert code(gql(c, "{ __typename }")) is None
        preflight = c.options(
            "/graphql",
            headers={"Origin": "http://app.example", "Access-Control-Request-Method": "POST"},
        )
        assert preflight.headers["access-control-allow-origin"] == "http://app.example"


def test_serve_refuses_a_public_address_without_a_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = cli.main(["serve", "--host", "0.0.0.0", "--port", "0", "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert status == 2
    assert "HIPPOGRAPH_ADMIN_KEY" in err and "--insecure" in err and "0.0.0.0" in err
    assert not (tmp_path / "engine.json").exists()  # nothing started


def test_commands_present_a_key_once_keys_exist(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = KeyStore(tmp_path)
    issued = store.create("cli", "read", ["team-a"])
    monkeypatch.delenv("HIPPOGRAPH_API_KEY", raising=False)
    argv = ["search", "tea", "-n", "team-a", "--data-dir", str(tmp_path)]
    assert cli.main(argv) == 2
    assert "UNAUTHENTICATED" in capsys.readouterr().err
    monkeypatch.setenv("HIPPOGRAPH_API_KEY", issued.token)
    assert cli.main([*argv[:3], "team-b", *argv[4:]]) == 2
    assert "FORBIDDEN" in capsys.readouterr().err
    assert cli.main(["remember", "x", "-n", "team-a", "--data-dir", str(tmp_path)]) == 2
    assert "FORBIDDEN" in capsys.readouterr().err
    assert not (tmp_path / "engine.json").exists()  # refused before the graph opened
    # keys: the data directory's owner, no key needed; the token is printed once.
    monkeypatch.delenv("HIPPOGRAPH_API_KEY")
    assert (
        cli.main(["keys", "create", "--role", "write", "-n", "x", "--data-dir", str(tmp_path)]) == 0
    )
    out = capsys.readouterr().out
    assert "created" in out and "token (shown once" in out
    assert cli.main(["keys", "list", "--data-dir", str(tmp_path)]) == 0
    listed = capsys.readouterr().out
    assert issued.key.id in listed and "hg_" not in listed
    assert cli.main(["keys", "revoke", issued.key.id, "--data-dir", str(tmp_path)]) == 0
    assert "revoked" in capsys.readouterr().out
    assert store.verify(issued.token) is None


def test_engine_files_are_the_owners_only(runtime: Runtime) -> None:
    data_dir = runtime.settings.graph.data_dir
    assert stat.S_IMODE(os.stat(data_dir).st_mode) == 0o700
    for path in [
        data_dir / "engine.json",
        data_dir / "credentials.json",
        *sorted((data_dir / "log").glob("*.log")),
    ]:
        assert stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0, path


def test_files_made_before_are_restricted_at_start(runtime: Runtime, tmp_path: Path) -> None:
    """A data directory from before files were kept to their owner (credentials, database
    files and logs at 0644, folders 0755) is tightened when the engine starts on it."""
    data_dir = tmp_path / "old"
    credentials(data_dir)
    (data_dir / "log").mkdir()
    old_log = data_dir / "log" / "arcadedb.old.log"
    old_log.write_text("memory text\n", encoding="utf-8")
    for path, mode in [
        (data_dir, 0o755),
        (data_dir / "credentials.json", 0o644),
        (data_dir / "log", 0o755),
        (old_log, 0o644),
    ]:
        os.chmod(path, mode)
    settings = runtime.settings  # one JVM a process: the same heap and options
    engine = EmbeddedEngine(
        data_dir,
        database="old",
        heap=settings.graph.engine_heap,
        heap_start=settings.graph.engine_heap_start,
        jvm_args=settings.graph.engine_jvm_args,
    )
    engine.start()
    try:
        for path in [data_dir, data_dir / "credentials.json", data_dir / "log", old_log]:
            assert stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0, path
    finally:
        engine.stop()


def test_the_engine_password_is_random_per_data_directory(tmp_path: Path) -> None:
    first, second = credentials(tmp_path / "one"), credentials(tmp_path / "two")
    assert first[1] != second[1] and len(first[1]) >= 32
    assert credentials(tmp_path / "one") == first  # generated once, then kept
    assert stat.S_IMODE(os.stat(tmp_path / "one" / "credentials.json").st_mode) == 0o600


def test_every_root_field_is_classified() -> None:
    """A field missing from FIELD_ROLES fails closed (admin over every namespace): right for
    safety, wrong for a read key using the explorer. Every root field must be classified."""
    graphql = schema._schema
    roots = [t for t in (graphql.query_type, graphql.mutation_type) if t is not None]
    fields = {name for t in roots for name in t.fields}
    assert fields - set(FIELD_ROLES) == set()
    assert set(FIELD_ROLES) - fields == set()
