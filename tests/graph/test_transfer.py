"""Export then import reproduces every node, property and edge exactly."""

from __future__ import annotations

import io
import json

from hippograph.graph import memories, transfer
from hippograph.graph.model import NewMemory
from hippograph.graph.runtime import Runtime


def _dump(rt: Runtime, ns: str) -> list[dict[str, object]]:
    buf = io.StringIO()
    transfer.export_to(rt.store, buf, ns)
    lines = [json.loads(x) for x in buf.getvalue().splitlines()]
    return sorted(
        (x for x in lines if x["kind"] != "header"), key=lambda x: json.dumps(x, sort_keys=True)
    )


def test_round_trip_is_exact(runtime: Runtime, namespace: str) -> None:
    a, b, c = memories.remember(
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
    assert kinds == ["edge", "memory", "tag", "tombstone"]
    edge_types = {str(x["type"]) for x in before if x["kind"] == "edge"}
    assert edge_types == {"HAS_TAG", "RELATES_TO", "SUPERSEDES"}
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
