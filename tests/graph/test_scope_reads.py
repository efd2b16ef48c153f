"""Every read of memories is scoped as recall is (``validate.visible``, the one ``$scopes``): a
memory of session A is not there for a caller in session B and is there in A; a project's
memory only for callers of that project; a global one for all. Run on the embedded engine and,
as a contract test, on Neo4j when HIPPOGRAPH_TEST_NEO4J_URI is set."""

from __future__ import annotations

import json
from collections.abc import Iterable

import pytest

from hippograph.graph import about, entities, explore, memories, transfer, validate
from hippograph.graph.errors import NotFound
from hippograph.graph.model import MemoryFilter
from hippograph.graph.recall import retrieval
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import scoped_export
from tests.graph.scope_fixtures import CALLERS, SESSION_A, Seeded, seed

Caller = tuple[str | None, str | None]


@pytest.fixture
def seeded(any_runtime: Runtime, namespace: str) -> Seeded:
    return seed(any_runtime, namespace)


def _names(seeded: Seeded, ids: Iterable[str]) -> set[str]:
    return {n for i in ids for n in [seeded.name(str(i))] if n is not None}


def test_recall_is_the_rule_every_read_follows(
    any_runtime: Runtime, namespace: str, seeded: Seeded
) -> None:
    for (project, session), expected in CALLERS.items():
        request = retrieval.RecallRequest(context="the Orion release, key, builds and notes",
                                          k=10, project=project, session_id=session,
                                          include_gap=True)  # fmt: skip
        got = retrieval.recall(any_runtime.store, any_runtime.embedder, namespace, request)
        assert _names(seeded, (i.memory.id for i in got.items)) == expected, (project, session)


@pytest.mark.parametrize("caller", list(CALLERS))
def test_memories_and_search_see_what_recall_sees(
    any_runtime: Runtime, namespace: str, seeded: Seeded, caller: Caller
) -> None:
    rt, (project, session) = any_runtime, caller
    page = memories.list_memories(rt.store, namespace, MemoryFilter(), first=50,
                                  project=project, session_id=session)  # fmt: skip
    assert _names(seeded, (m.id for m in page.items)) == CALLERS[caller]
    found = memories.search(rt.store, rt.embedder, namespace, "Orion", 10, project=project,
                            session_id=session)  # fmt: skip
    assert _names(seeded, (s.memory.id for s in found)) == CALLERS[caller]
    # The filter narrows what the caller sees; it never widens it.
    narrowed = memories.list_memories(rt.store, namespace, MemoryFilter(session_id="chat-a"),
                                      project=project, session_id=session)  # fmt: skip
    assert _names(seeded, (m.id for m in narrowed.items)) == CALLERS[caller] & {
        "session_a",
        "project",
    }


@pytest.mark.parametrize("caller", list(CALLERS))
def test_the_explorer_sees_what_recall_sees(
    any_runtime: Runtime, namespace: str, seeded: Seeded, caller: Caller
) -> None:
    store, (project, session) = any_runtime.store, caller
    seen = CALLERS[caller]
    hood = explore.neighbourhood(store, namespace, seeded.ids["global"], depth=2,
                                 project=project, session_id=session)  # fmt: skip
    assert _names(seeded, (n.id for n in hood.nodes if n.kind == "memory")) == seen
    for name, memory_id in seeded.ids.items():
        if name in seen:
            hood = explore.neighbourhood(store, namespace, memory_id, project=project,
                                         session_id=session)  # fmt: skip
            assert hood.root == f"memory:{memory_id}"
        else:
            with pytest.raises(NotFound):
                explore.neighbourhood(store, namespace, memory_id, project=project,
                                      session_id=session)  # fmt: skip
            with pytest.raises(NotFound):
                explore.provenance(store, namespace, memory_id, project=project,
                                   session_id=session)  # fmt: skip
    (cluster,) = explore.clusters(store, namespace, project=project, session_id=session)
    assert cluster.id == seeded.cluster and _names(seeded, cluster.members) == seen
    # The global memory came from the turn through the session-A memory: only A sees the path.
    origins = explore.provenance(store, namespace, seeded.ids["global"], project=project,
                                 session_id=session)  # fmt: skip
    if "session_a" in seen:
        assert [(d.episode.id, d.via) for d in origins] == [
            (seeded.turn, (seeded.ids["global"], seeded.ids["session_a"]))
        ]
    else:
        assert origins == []


def test_a_cluster_of_hidden_memories_only_is_not_listed(
    any_runtime: Runtime, namespace: str, seeded: Seeded
) -> None:
    any_runtime.store.driver.execute_query(
        "MATCH (m:Memory)-[r:IN_CLUSTER]->(:Cluster) WHERE m.id <> $a DELETE r",
        a=seeded.ids["session_a"], database_=any_runtime.store.database,
    )  # fmt: skip
    assert [c.id for c in explore.clusters(any_runtime.store, namespace, session_id="chat-a")] == [
        seeded.cluster
    ]
    assert explore.clusters(any_runtime.store, namespace, session_id="chat-b") == []


def test_entity_views_see_what_recall_sees(
    any_runtime: Runtime, namespace: str, seeded: Seeded
) -> None:
    store = any_runtime.store
    # Ines is mentioned only by the memory of session A, Tomas only by session B's.
    for (project, session), seen in CALLERS.items():
        listed = {e.name for e in entities.search(store, namespace, limit=100, project=project,
                                                  session_id=session)}  # fmt: skip
        assert ("Ines Marques" in listed) == ("session_a" in seen), (project, session)
        assert ("Tomas Ferreira" in listed) == ("session_b" in seen), (project, session)
        if "session_a" in seen:
            view = about.about(store, namespace, "Ines Marques", project=project,
                               session_id=session)  # fmt: skip
            assert [m.content for m in view.memories] == [SESSION_A]
            assert [t.memory.id for t in view.timeline] == [seeded.ids["session_a"]]
        else:
            with pytest.raises(NotFound):
                about.about(store, namespace, "Ines Marques", project=project, session_id=session)
    # Orion is mentioned by all four: each caller's timeline holds the ones it sees.
    for (project, session), seen in CALLERS.items():
        orion = about.about(store, namespace, "Orion", project=project, session_id=session)
        assert _names(seeded, (t.memory.id for t in orion.timeline)) == seen


def test_an_export_for_a_caller_holds_what_it_sees(
    any_runtime: Runtime, namespace: str, seeded: Seeded
) -> None:
    store = any_runtime.store
    whole = json.dumps(list(transfer.export_lines(store, namespace)))
    assert SESSION_A in whole and seeded.ids["session_a"] in whole
    for (project, session), seen in CALLERS.items():
        lines = list(scoped_export.lines(store, namespace, validate.visible(project, session)))
        text = json.dumps(lines)
        exported = {line["props"]["id"] for line in lines if line["kind"] == "memory"}
        assert _names(seeded, exported) == seen, (project, session)
        for name, memory_id in seeded.ids.items():
            assert (memory_id in text) == (name in seen), (project, session, name)
        assert (SESSION_A in text) == ("session_a" in seen)
