"""The loop of the jobs that work one namespace at a time (cluster, core, profile, vocabulary):
the namespaces still to do, in order, with progress and a checkpoint after each, so a run
that stops resumes after the last namespace it finished."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from hippograph.jobs.runner import JobContext


def listed(ctx: JobContext) -> list[str]:
    """The namespaces holding memories (the run's one namespace, if it has one)."""
    rows = ctx.store.read("job/cluster_namespaces", namespace=ctx.namespace)
    return [str(r["namespace"]) for r in rows]


def each(ctx: JobContext, namespaces: Iterable[str], *, skip_rebuilding: bool) -> Iterator[str]:
    """Yield the namespaces a resumed run has not finished, sorted; after the caller's work on
    one, count it done and checkpoint it (the cursor). A namespace whose work raises is not
    checkpointed.

    skip_rebuilding: leave out a namespace a rebuild has wiped and not replayed
    (``JobContext.rebuilding``, counted in ``skipped_rebuilding``), for a job that derives a
    namespace-wide view from its memories; it counts as done.
    """
    ordered = sorted(namespaces)
    todo = [n for n in ordered if ctx.pending(n) and not (skip_rebuilding and ctx.rebuilding(n))]
    done = len(ordered) - len(todo)
    ctx.progress(done, len(ordered))
    for namespace in todo:
        yield namespace
        done += 1
        ctx.checkpoint(namespace, done, len(ordered))
