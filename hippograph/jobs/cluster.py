"""Job ``cluster``: topic clusters per namespace (``graph.upkeep.clustering``), written as
``Cluster`` nodes {id, namespace, centroid, size, label} and ``IN_CLUSTER {score}`` edges.

Each run is a generation (its ``as_of``). Per namespace, in order: read embeddings and the
previous membership (edges created before this generation), cluster, upsert the Cluster nodes,
write the memberships in batches, then prune what earlier generations left. A memory that stays
in its cluster keeps its edge, stamped with the new generation; one that moves gets a new edge,
and until the prune it briefly sits in its old and its new cluster. A run killed half-way
resumes with the same generation: clustering is deterministic and the previous membership it
reads is unchanged (edges record the generation that created them), so it computes the same
clusters and its writes are no-ops where already done. The cursor is the last namespace
finished.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

import numpy as np

from hippograph.graph.store.store import GraphError, Tx, deleted_underneath
from hippograph.graph.upkeep.clustering import ClusterResult, cluster, document_frequencies, label
from hippograph.jobs import namespaces
from hippograph.jobs.runner import JobContext, batches

log = logging.getLogger(__name__)

_READ_PAGE = 10_000
_PRUNE_BATCH = 10_000
# A namespace whose memories are deleted while it is clustered (a rebuild's wipe, a forget) is
# clustered again from a fresh read, at most this many times in all.
_ATTEMPTS = 3


def run(ctx: JobContext) -> None:
    names = {
        r["namespace"]
        for query in ("job/cluster_namespaces", "job/cluster_stale_namespaces")
        for r in ctx.store.read(query, namespace=ctx.namespace)
    } - {None}
    for namespace in namespaces.each(ctx, names, skip_rebuilding=True):
        for attempt in range(1, _ATTEMPTS + 1):
            try:
                _one_namespace(ctx, namespace)
                break
            except GraphError as exc:
                # Rerunning is safe: the generation is the same and its writes are idempotent.
                if attempt == _ATTEMPTS or not deleted_underneath(exc):
                    raise
                ctx.counts["reread"] += 1
                log.info("cluster %s: memories deleted while clustering, read again: %s",
                         namespace, exc)  # fmt: skip


def _one_namespace(ctx: JobContext, namespace: str) -> None:
    generation = ctx.as_of_iso
    ids, vectors, texts, previous = _read(ctx, namespace, generation)
    if len(ids) > ctx.config.cluster.min_cluster_size:
        result = cluster(ids, np.asarray(vectors, dtype=np.float32), previous, ctx.config.cluster)
    else:
        result = ClusterResult(clusters=[], assignments={})
    ctx.counts["memories"] += len(ids)
    ctx.counts["clusters"] += len(result.clusters)
    ctx.counts["noise"] += len(ids) - len(result.assignments)
    _write(ctx, namespace, generation, result, texts)
    _prune(ctx, namespace, generation)


def _read(
    ctx: JobContext, namespace: str, generation: str
) -> tuple[list[str], list[list[float]], dict[str, str], dict[str, str]]:
    listed = sorted(r["id"] for r in ctx.store.read("job/cluster_ids", namespace=namespace))
    ids: list[str] = []
    vectors: list[list[float]] = []
    texts: dict[str, str] = {}
    for page in batches(listed, _READ_PAGE):
        rows = ctx.store.read("job/cluster_fetch", ids=list(page))
        by_id = {r["id"]: r for r in rows}
        for memory_id in page:
            r = by_id.get(memory_id)
            if r is None or r["embedding"] is None:
                continue  # deleted since it was listed
            ids.append(memory_id)
            vectors.append(r["embedding"])
            texts[memory_id] = r["content"] or ""
    previous: dict[str, str] = {}
    for r in ctx.store.read("job/cluster_previous", namespace=namespace, generation=generation):
        if r["id"] in texts:
            # A memory in two clusters (a run killed before its prune): the smaller id, stably.
            held = previous.get(r["id"])
            previous[r["id"]] = r["cluster"] if held is None else min(held, r["cluster"])
    return ids, vectors, texts, previous


def _write(
    ctx: JobContext, namespace: str, generation: str, result: ClusterResult, texts: dict[str, str]
) -> None:
    df = document_frequencies(texts.values())
    clusters = [
        {
            "id": c.id,
            "centroid": list(c.centroid),
            "size": c.size,
            "label": label([texts[m] for m in c.member_ids], df, len(texts)),
        }
        for c in result.clusters
    ]
    for batch in batches(clusters, 500):
        ctx.store.write_tx(
            partial(
                _run_one,
                query="job/cluster_upsert",
                clusters=list(batch),
                namespace=namespace,
                generation=generation,
                as_of=ctx.as_of_iso,
            )
        )
    rows = [
        {"id": memory_id, "cluster": cluster_id, "score": score}
        for memory_id, (cluster_id, score) in sorted(result.assignments.items())
    ]
    for batch in batches(rows, ctx.batch_size):
        assign = partial(
            _run_one, query="job/cluster_assign", rows=list(batch), generation=generation
        )
        ctx.counts["assigned"] += int(ctx.store.write_tx(assign)["assigned"])
        # The cursor stays below this namespace ("" before the first one finishes), so a run
        # killed here is resumed, with this generation, from this namespace.
        ctx.checkpoint(ctx.cursor or "", ctx.done, ctx.total)


def _run_one(tx: Tx, *, query: str, **params: Any) -> dict[str, Any]:
    return tx.run(query, **params)[0]


def _prune(ctx: JobContext, namespace: str, generation: str) -> None:
    for query, counter in (
        ("job/cluster_prune_edges", "pruned_edges"),
        ("job/cluster_prune_nodes", "pruned_clusters"),
    ):
        while True:
            row = ctx.store.write(
                query, namespace=namespace, generation=generation, limit=_PRUNE_BATCH
            )[0]
            ctx.counts[counter] += int(row["deleted"])
            if int(row["deleted"]) < _PRUNE_BATCH:
                break
