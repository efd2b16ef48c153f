"""Job ``vocabulary``: add the words of each namespace's new or edited memories to its
vocabulary (``graph.vocabulary``), what recall's vocabulary seeds search."""

from __future__ import annotations

from hippograph.graph import vocabulary
from hippograph.jobs.models import embedder
from hippograph.jobs.runner import JobContext


def run(ctx: JobContext) -> None:
    rows = ctx.store.read("job/cluster_namespaces", namespace=ctx.namespace)
    namespaces = sorted(str(r["namespace"]) for r in rows)
    todo = [ns for ns in namespaces if ctx.pending(ns)]
    done = len(namespaces) - len(todo)
    ctx.progress(done, len(namespaces))
    if not todo:
        return
    model = embedder(ctx.config.settings)
    for namespace in todo:
        found = vocabulary.update(ctx.store, model, namespace)
        ctx.counts["namespaces"] += 1
        ctx.counts["memories"] += found.memories
        ctx.counts["words"] += found.words
        done += 1
        ctx.checkpoint(namespace, done, len(namespaces))
