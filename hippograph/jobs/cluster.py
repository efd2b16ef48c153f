"""Job ``cluster``: topic clusters per namespace (``graph.clustering``), written as ``Cluster``
nodes {id, namespace, centroid, size, label} and ``IN_CLUSTER {score}`` edges.

Each run is a generation (its ``as_of``). Per namespace, in order: read embeddings and the
previous membership (earlier generations only), cluster, upsert the Cluster nodes, MERGE this
generation's IN_CLUSTER edges in batches, then prune what earlier generations left. Until the
prune, a memory may briefly sit in its old and its new cluster. A run killed half-way resumes
with the same generation: clustering is deterministic and the previous membership it reads is
unchanged, so it computes the same clusters and its MERGEs are no-ops where already written.
The cursor is the last namespace finished.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from hippograph.graph.clustering import ClusterResult, cluster, document_frequencies, label
from hippograph.graph.store import Tx
from hippograph.jobs.runner import JobContext, batches

_READ_PAGE = 5000
_PRUNE_BATCH = 10_000


def run(ctx: JobContext) -> None:
    names = {
        r["namespace"]
        for query in ("job/cluster_namespaces", "job/cluster_stale_namespaces")
        for r in ctx.store.read(query, namespace=ctx.namespace)
    }
    namespaces = sorted(n for n in names if n is not None)
    total = len(namespaces)
    done = sum(1 for n in namespaces if not ctx.pending(n))
    ctx.progress(done, total)
    for namespace in namespaces:
        if not ctx.pending(namespace):
            continue
        _one_namespace(ctx, namespace, done, total)
        done += 1
        ctx.checkpoint(namespace, done, total)


def _one_namespace(ctx: JobContext, namespace: str, done: int, total: int) -> None:
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
    previous: dict[str, str] = {}
    for page in batches(listed, _READ_PAGE):
        rows = ctx.store.read("job/cluster_fetch", ids=list(page), generation=generation)
        by_id = {r["id"]: r for r in rows}
        for memory_id in page:
            r = by_id.get(memory_id)
            if r is None or r["embedding"] is None:
                continue  # deleted since it was listed
            ids.append(memory_id)
            vectors.append(r["embedding"])
            texts[memory_id] = r["content"] or ""
            if r["previous"]:
                previous[memory_id] = min(r["previous"])
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
        ctx.checkpoint(ctx.cursor, ctx.done, ctx.total)


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
