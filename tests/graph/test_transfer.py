"""Export then import reproduces every node, property and edge exactly."""

from __future__ import annotations

import io
import json

from hippograph.graph import memories, transfer
from hippograph.graph.model import NewMemory
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath


def _dump(rt: Runtime, ns: str) -> list[dict[str, object]]:
    buf = io.StringIO()
    transfer.export_to(rt.store, buf, ns)
    lines = [json.loads(x) for x in buf.getvalue().splitlines()]
    return sorted(
        (x for x in lines if x["kind"] != "header"), key=lambda x: json.dumps(x, sort_keys=True)
    )


def test_round_trip_is_exact(runtime: Runtime, namespace: str) -> None:
    a, b, c = writepath.remember(
        runtime.store,
        runtime.embedder,
        namespace,
        [
            NewMemory(content="Kim lives in Oslo", tags=("kim", "places")),
            NewMemory(content="Kim moved to Bergen", tags=("kim",), steps=("pack", "move")),
            NewMemory(content="Oslo is in Norway"),
        ],
    )
    memories.link(runtime.store, namespace, a.memory.id, c.memory.id, weight=0.4)
    memories.supersede(runtime.store, namespace, a.memory.id, b.memory.id)
    memories.forget(runtime.store, namespace, c.memory.id)
    before = _dump(runtime, namespace)
    kinds = sorted({str(x["kind"]) for x in before})
    assert kinds == [
        "decision", "edge", "edit_event", "entity", "memory", "remember_event", "tag",
        "tombstone",
    ]  # fmt: skip
    edge_types = {str(x["type"]) for x in before if x["kind"] == "edge"}
    # Kim, Oslo, Bergen, Norway: entities the memories mention; Kim LIVES_IN Oslo, then Bergen.
    assert edge_types == {"HAS_TAG", "RELATES_TO", "SUPERSEDES", "MENTIONS", "RELATED"}
    related = [x for x in before if x["kind"] == "edge" and x["type"] == "RELATED"]
    assert sorted((x["props"]["type"], "until" in x["props"]) for x in related) == [
        ("LIVES_IN", False), ("LIVES_IN", True),
    ]  # fmt: skip
    tag_edges = sum(1 for x in before if x["kind"] == "edge" and x["type"] == "HAS_TAG")

    buf = io.StringIO()
    transfer.export_to(runtime.store, buf, namespace)
    runtime.store.driver.execute_query(
        "MATCH (n) WHERE n.namespace = $ns DETACH DELETE n",
        ns=namespace,
        database_=runtime.store.database,
    )
    assert _dump(runtime, namespace) == []
    counts = transfer.import_from(runtime.store, io.StringIO(buf.getvalue()))
    assert counts["memory"] == 3 and counts["edge:HAS_TAG"] == tag_edges
    assert _dump(runtime, namespace) == before
    # Imported embeddings still serve the vector index.
    found = memories.search(
        runtime.store, runtime.embedder, namespace, "where does Kim live now", 1
    )
    assert found[0].memory.id == b.memory.id


def test_import_rejects_garbage(runtime: Runtime) -> None:
    import pytest

    from hippograph.graph.errors import InvalidInput

    with pytest.raises(InvalidInput, match="line 2"):
        transfer.import_from(runtime.store, ['{"kind": "header", "version": 1}', "not json"])


def test_round_trip_keeps_the_log_and_history(runtime: Runtime, namespace: str) -> None:
    from hippograph.graph import history
    from hippograph.graph.write import episodes, rebuild
    from tests.graph.log_fixtures import active as every_active
    from tests.graph.log_fixtures import turn

    turns = [
        turn("s1", 0, "I work at Google as an engineer."),
        turn("s1", 1, "Remember that I now work at Microsoft."),
    ]
    episodes.ingest(
        runtime.store, runtime.embedder, namespace, turns, policy=runtime.policy, flush=True
    )
    writepath.remember(
        runtime.store, runtime.embedder, namespace, [NewMemory(content="My bike is red")]
    )
    before = _dump(runtime, namespace)
    kinds = {str(x["kind"]) for x in before}
    assert {"episode", "decision", "remember_event"} <= kinds
    to_episodes = {(x["type"], x.get("to_label")) for x in before if x["kind"] == "edge"}
    assert {("DERIVED_FROM", "Episode"), ("NEXT", "Episode")} <= to_episodes
    derived = next(x for x in before if x["kind"] == "edge" and x["type"] == "DERIVED_FROM")
    history_before = history.history(runtime.store, namespace, str(derived["from_id"]))

    buf = io.StringIO()
    transfer.export_to(runtime.store, buf, namespace)
    runtime.store.driver.execute_query(
        "MATCH (n) WHERE n.namespace = $ns DETACH DELETE n",
        ns=namespace,
        database_=runtime.store.database,
    )
    counts = transfer.import_from(runtime.store, io.StringIO(buf.getvalue()))
    assert counts["episode"] == 2 and counts["edge:NEXT:Episode"] == 1
    assert _dump(runtime, namespace) == before
    assert history.history(runtime.store, namespace, str(derived["from_id"])) == (history_before)
    # The restored log is enough to rebuild the same facts.
    active = {m.content for m in every_active(runtime, namespace)}
    rebuild.rebuild(runtime.store, runtime.embedder, namespace, policy=runtime.policy)
    assert {m.content for m in every_active(runtime, namespace)} == active
