"""Scope visibility: recall tests each memory's stored scope key against ``model.scopes``, and
sees exactly what it saw when it compared scope, project and session_id."""

from __future__ import annotations

import io
import json

from hippograph.graph import transfer
from hippograph.graph.model import NewMemory, scope_key, scopes
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import migrate, writepath
from tests.conftest import migration_pending, wipe

# The predicate every recall statement held before `$scopes` (13 copies in 10 files).
_BEFORE = (
    "MATCH (m:Memory) WHERE m.namespace = $ns"
    " AND (m.scope = 'global' OR (m.scope = 'project' AND m.project = $project)"
    " OR (m.scope = 'session' AND m.session_id = $session_id)) RETURN m.id AS id"
)
_NOW = "MATCH (m:Memory) WHERE m.namespace = $ns AND m.scope_key IN $scopes RETURN m.id AS id"
MEMORIES = (
    NewMemory(content="The office coffee machine is on floor 2"),
    NewMemory(content="Lunch is served at noon", project="atlas", session_id="chat-9"),
    NewMemory(content="Atlas builds with Flask", scope="project", project="atlas"),
    NewMemory(
        content="Atlas deploys on Fridays", scope="project", project="atlas", session_id="chat-7"
    ),
    NewMemory(content="Zeus uses Rust", scope="project", project="zeus"),
    NewMemory(content="In this chat we talk about beans", scope="session", session_id="chat-9"),
    NewMemory(
        content="This chat is about the atlas launch",
        scope="session",
        session_id="chat-7",
        project="atlas",
    ),
)
RECALLS = [
    (project, session)
    for project in (None, "atlas", "zeus", "nowhere")
    for session in (None, "chat-9", "chat-7")
]


def _remember(rt: Runtime, ns: str) -> list[str]:
    done = writepath.remember(rt.store, rt.embedder, ns, list(MEMORIES), policy=rt.policy)
    return [r.memory.id for r in done]


def _ids(rt: Runtime, query: str, **params: object) -> set[str]:
    records = rt.store.driver.execute_query(query, database_=rt.store.database, **params)[0]
    return {r["id"] for r in records}


def test_a_recall_sees_global_its_project_and_its_session() -> None:
    assert scopes(None, None) == ["global"]
    assert scopes("atlas", "chat-9") == ["global", "project:atlas", "session:chat-9"]
    assert scopes(None, "chat-9") == ["global", "session:chat-9"]
    assert scope_key("project", "atlas", "chat-9") == "project:atlas"
    assert scope_key("session", "atlas", "chat-9") == "session:chat-9"
    assert scope_key("global", "atlas", "chat-9") == "global"
    assert scope_key("project", None, "chat-9") is None  # no recall saw it before either


def test_the_scope_key_selects_what_scope_project_and_session_did(
    any_runtime: Runtime, namespace: str
) -> None:
    ids = _remember(any_runtime, namespace)
    seen: set[str] = set()
    for project, session in RECALLS:
        before = _ids(any_runtime, _BEFORE, ns=namespace, project=project, session_id=session)
        now = _ids(any_runtime, _NOW, ns=namespace, scopes=scopes(project, session))
        assert now == before, (project, session)
        seen |= now
    assert seen == set(ids)
    assert _ids(any_runtime, _NOW, ns=namespace, scopes=scopes("atlas", "chat-7")) == {
        ids[0], ids[1], ids[2], ids[3], ids[6]
    }  # fmt: skip


def test_a_store_written_without_scope_keys_gets_them_once(
    runtime: Runtime, namespace: str
) -> None:
    ids = _remember(runtime, namespace)
    unkeyed = "MATCH (m:Memory) WHERE m.namespace = $ns REMOVE m.scope_key RETURN m.id AS id"
    assert _ids(runtime, unkeyed, ns=namespace) == set(ids)
    migration_pending(runtime.store, migrate.SCOPE_KEYS)
    assert not _ids(runtime, _NOW, ns=namespace, scopes=scopes("atlas", "chat-9"))
    assert migrate.scope_keys(runtime.store) >= len(ids)
    for project, session in RECALLS:
        before = _ids(runtime, _BEFORE, ns=namespace, project=project, session_id=session)
        assert _ids(runtime, _NOW, ns=namespace, scopes=scopes(project, session)) == before
    assert migrate.scope_keys(runtime.store) == 0


def test_an_import_line_without_its_scope_key_is_given_it(runtime: Runtime, namespace: str) -> None:
    _remember(runtime, namespace)
    buf = io.StringIO()
    transfer.export_to(runtime.store, buf, namespace)
    wipe(runtime.store, namespace)
    lines = []
    for line in buf.getvalue().splitlines():
        record = json.loads(line)
        if record.get("kind") == "memory":
            record["props"].pop("scope_key")
        lines.append(json.dumps(record))
    transfer.import_from(runtime.store, lines)
    for project, session in RECALLS:
        before = _ids(runtime, _BEFORE, ns=namespace, project=project, session_id=session)
        assert _ids(runtime, _NOW, ns=namespace, scopes=scopes(project, session)) == before
    assert _ids(runtime, _NOW, ns=namespace, scopes=scopes("atlas", "chat-7"))
