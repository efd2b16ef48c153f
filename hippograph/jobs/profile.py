"""Job ``profile``: materialize each namespace's profile and skill proposals
(``graph.upkeep.profile``) from its active memories."""

from __future__ import annotations

from hippograph.graph.upkeep import profile
from hippograph.jobs.runner import JobContext


def run(ctx: JobContext) -> None:
    rows = ctx.store.read("job/cluster_namespaces", namespace=ctx.namespace)
    namespaces = sorted(str(r["namespace"]) for r in rows)
    todo = [ns for ns in namespaces if ctx.pending(ns) and not ctx.rebuilding(ns)]
    done = len(namespaces) - len(todo)
    ctx.progress(done, len(namespaces))
    for namespace in todo:
        found = profile.refresh(ctx.store, namespace)
        ctx.counts["namespaces"] += 1
        ctx.counts["entries"] += len(found.entries)
        ctx.counts["skills"] += len(found.skills)
        done += 1
        ctx.checkpoint(namespace, done, len(namespaces))
