"""The start-up warm-up plans every recall statement and recalls on real rows, writing nothing."""

from __future__ import annotations

from hippograph.graph.model import NewMemory
from hippograph.graph.recall import warmup
from hippograph.graph.runtime import Runtime
from hippograph.graph.store.store import Store
from hippograph.graph.write import writepath

COUNTS = """
MATCH (n)
OPTIONAL MATCH (n)-[r]->()
RETURN count(DISTINCT n) AS nodes, count(r) AS edges,
       sum(coalesce(n.access_count, 0)) AS accesses
"""


def _counts(store: Store) -> tuple[int, int, int]:
    row = store.driver.execute_query(COUNTS, database_=store.database).records[0]
    return int(row["nodes"]), int(row["edges"]), int(row["accesses"])


def test_the_warm_up_covers_every_recall_statement() -> None:
    names = warmup.statement_names()
    assert {"recall/vector_seeds", "recall/fulltext_seeds", "recall/expand"} <= set(names)
    assert "recall/warmup_namespace" in names
    assert all(n.startswith("recall/") for n in names)


def test_the_warm_up_writes_nothing(any_runtime: Runtime, namespace: str) -> None:
    rt = any_runtime
    writepath.remember(
        rt.store,
        rt.embedder,
        namespace,
        [NewMemory(content="Ines waters the garden every Saturday morning")],
        policy=rt.policy,
    )
    rt.settle()
    before = _counts(rt.store)
    took = warmup.warm(rt.store, rt.embedder, config=rt.cascade, services=rt.services)
    rt.settle()
    assert took > 0
    assert _counts(rt.store) == before
    # Some namespace holding memories was found, so the recall path ran on real rows.
    assert rt.store.read("recall/warmup_namespace") != []
