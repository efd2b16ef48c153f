"""Job ``core``: recompute each namespace's core block (``graph.upkeep.core``): by the rule, or
by the configured LLM with the rule as fallback. A namespace whose block does not change writes
nothing."""

from __future__ import annotations

from hippograph.graph.upkeep import core
from hippograph.graph.write.tools import write_tools
from hippograph.jobs import namespaces
from hippograph.jobs.runner import JobContext


def run(ctx: JobContext) -> None:
    todo = namespaces.each(ctx, namespaces.listed(ctx), skip_rebuilding=True)
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
    finally:
        tools.close()
