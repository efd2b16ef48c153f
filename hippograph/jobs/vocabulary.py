"""Job ``vocabulary``: add the words of each namespace's new or edited memories to its
vocabulary (``graph.vocabulary``), what recall's vocabulary seeds search."""

from __future__ import annotations

from hippograph.graph import vocabulary
from hippograph.jobs import namespaces
from hippograph.jobs.models import embedder
from hippograph.jobs.runner import JobContext


def run(ctx: JobContext) -> None:
    # Words are added memory by memory, not derived from the whole namespace: a namespace a
    # rebuild left half-replayed is not skipped.
    for namespace in namespaces.each(ctx, namespaces.listed(ctx), skip_rebuilding=False):
        model = embedder(ctx.config.settings)  # loaded once a process, when there is work
        found = vocabulary.update(ctx.store, model, namespace)
        ctx.counts["namespaces"] += 1
        ctx.counts["memories"] += found.memories
        ctx.counts["words"] += found.words
