"""Job ``pagerank``: memory ``importance`` from weighted PageRank over RELATES_TO, then entity
``importance`` over the entity graph (``graph.upkeep.entity_upkeep``).

The graph: active memories; RELATES_TO edges between them whose confidence reaches
``settings.recall.min_edge_confidence`` (edges recall ignores confer no importance), weighted
``weight x confidence`` and taken as undirected (relatedness is symmetric, and the direction of a
co-use link is arbitrary).

Two paths, one definition (damping 0.85, 20 iterations, tolerance 1e-7, dangling nodes send
nothing; see ``graph.upkeep.pagerank``):

* Neo4j with the Graph Data Science plugin and the ``graphdatascience`` 2.x client
  (``pip install 'hippograph[gds]'``): Cypher projection (``gds.graph.project`` through
  ``gds.graph.project.cypher``), ``gds.pageRank.stream``.
* Anywhere else: the same recurrence in-process on sparse matrices.

Written back per memory: ``pagerank`` (the raw score) and ``importance`` (the score divided by
the namespace's highest, so 0..1 within each namespace), in batches ordered by memory id.
"""

from __future__ import annotations

import logging
import uuid
import weakref
from functools import partial
from typing import Any

from hippograph.graph.store import queries
from hippograph.graph.store.store import Store, Tx
from hippograph.graph.upkeep import entity_upkeep
from hippograph.graph.upkeep.pagerank import changed_rows, pagerank
from hippograph.jobs.runner import JobContext, batches

log = logging.getLogger(__name__)


def run(ctx: JobContext) -> None:
    nodes = ctx.store.read("job/pagerank_nodes", namespace=ctx.namespace)
    ctx.progress(0, len(nodes))
    # GDS refuses to project an empty graph ("Projected graph cannot be empty"): with no active
    # memory in scope there is nothing to rank, which the in-process path returns as such.
    scores = gds_scores(ctx) if nodes else None
    if scores is None:
        scores = in_process_scores(ctx, [n["id"] for n in nodes])
        ctx.counts["in_process"] = 1
    else:
        ctx.counts["gds"] = 1
    rows, unchanged = changed_rows(nodes, scores)
    ctx.counts["unchanged"] += unchanged
    total = len(rows)
    todo = [r for r in rows if ctx.pending(r["id"])]
    done = total - len(todo)
    for batch in batches(todo, ctx.batch_size):
        work = partial(_write, rows=list(batch), as_of=ctx.as_of_iso)
        ctx.counts["updated"] += ctx.store.write_tx(work)
        done += len(batch)
        ctx.checkpoint(str(batch[-1]["id"]), done, total)
    ranked = entity_upkeep.rank(ctx.store, ctx.namespace, ctx.config.pagerank, ctx.as_of_iso)
    ctx.counts.update({f"entity_{k}": v for k, v in ranked.items()})


def _write(tx: Tx, *, rows: list[dict[str, Any]], as_of: str) -> int:
    return int(tx.run("job/pagerank_write", rows=rows, as_of=as_of)[0]["updated"])


def in_process_scores(ctx: JobContext, node_ids: list[str]) -> dict[str, float]:
    rows = ctx.store.read(
        "job/pagerank_edges",
        namespace=ctx.namespace,
        floor=ctx.config.settings.recall.min_edge_confidence,
    )
    known = set(node_ids)
    edges: list[tuple[str, str, float]] = []
    for r in rows:
        source, target, weight = r["source"], r["target"], float(r["weight"])
        if source in known and target in known and weight > 0.0 and source != target:
            edges += [(source, target, weight), (target, source, weight)]
    ctx.counts["edges"] = len(edges) // 2
    return pagerank(node_ids, edges, ctx.config.pagerank)


def gds_scores(ctx: JobContext) -> dict[str, float] | None:
    """PageRank through GDS, or None when this graph has no GDS (or the client is missing)."""
    store = ctx.store
    if not store.dialect.may_have_gds:
        return None
    gds = _gds_client(store)
    if gds is None:
        return None
    graph_name = f"hippograph-pagerank-{uuid.uuid4().hex[:12]}"
    project = queries.load("job/gds_project", store.dialect.name).text
    graph = None
    try:
        graph, result = gds.graph.project.cypher(
            project,
            graph_name=graph_name,
            namespace=ctx.namespace,
            floor=ctx.config.settings.recall.min_edge_confidence,
        )
        ctx.counts["edges"] = int(result.relationship_count) // 2
        cfg = ctx.config.pagerank
        rows = store.read(
            "job/gds_pagerank",
            graph_name=graph_name,
            damping=cfg.damping,
            max_iterations=cfg.max_iterations,
            tolerance=cfg.tolerance,
        )
        return {str(r["id"]): float(r["score"]) for r in rows}
    finally:
        if graph is not None:
            graph.drop(fail_if_missing=False)


# Stores found to have no GDS, so the probe runs once per store, not once per run.
_NO_GDS: weakref.WeakSet[Store] = weakref.WeakSet()


def _gds_client(store: Store) -> Any:
    if store in _NO_GDS:
        return None
    try:
        from graphdatascience import GraphDataScience
    except ImportError:
        log.info("pagerank: graphdatascience is not installed (hippograph[gds]); in-process")
        _NO_GDS.add(store)
        return None
    try:
        # graphdatascience 2.x builds its client from the driver itself (1.x had
        # from_neo4j_driver). Bolt only: Arrow would need the credentials, which a driver does
        # not hand over; no progress bars in a server's log. The driver stays ours (a client
        # built on a driver does not close it).
        return GraphDataScience(
            store.driver, database=store.database, arrow=False, show_progress=False
        )
    except Exception as exc:  # the client refuses a server without the GDS plugin
        log.info("pagerank: no Graph Data Science on %s (%s); in-process", store.location, exc)
        _NO_GDS.add(store)
        return None
