"""Job ``profile``: materialize each namespace's profile and skill proposals
(``graph.upkeep.profile``) from its active memories."""

from __future__ import annotations

from hippograph.graph.upkeep import profile
from hippograph.jobs import namespaces
from hippograph.jobs.runner import JobContext


def run(ctx: JobContext) -> None:
    for namespace in namespaces.each(ctx, namespaces.listed(ctx), skip_rebuilding=True):
        found = profile.refresh(ctx.store, namespace)
        ctx.counts["namespaces"] += 1
        ctx.counts["entries"] += len(found.entries)
        ctx.counts["skills"] += len(found.skills)
