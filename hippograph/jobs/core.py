"""Job ``core``: recompute each namespace's core block (``graph.upkeep.core``): by the rule, or
by the configured LLM with the rule as fallback. A namespace whose block does not change writes
nothing."""

from __future__ import annotations

from hippograph.graph.upkeep import core
from hippograph.graph.write.tools import write_tools
from hippograph.jobs.runner import JobContext


def run(ctx: JobContext) -> None:
    rows = ctx.store.read("job/cluster_namespaces", namespace=ctx.namespace)
    namespaces = sorted(str(r["namespace"]) for r in rows)
    todo = [ns for ns in namespaces if ctx.pending(ns) and not ctx.rebuilding(ns)]
    done = len(namespaces) - len(todo)
    ctx.progress(done, len(namespaces))
    tools = write_tools(ctx.config.settings)
    try:
        for namespace in todo:
            change = core.recompute(ctx.store, namespace, ctx.config.core, client=tools.client)
            ctx.counts["namespaces"] += 1
            if change is not None:
                ctx.counts["changed"] += 1
                ctx.counts["added"] += len(change.added)
                ctx.counts["removed"] += len(change.removed)
                ctx.counts[f"decided_by_{change.decider.split(' ')[0]}"] += 1
            done += 1
            ctx.checkpoint(namespace, done, len(namespaces))
    finally:
        tools.close()
