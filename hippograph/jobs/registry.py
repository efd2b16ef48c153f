"""The jobs by name, and the entry points the worker, the CLI and the API use."""

from __future__ import annotations

import threading

from hippograph.graph.errors import InvalidInput
from hippograph.graph.store.store import Store
from hippograph.graph.upkeep.jobruns import JobRun
from hippograph.jobs import (
    cluster,
    consolidate,
    core,
    decay,
    edges,
    pagerank,
    profile,
    vocabulary,
)
from hippograph.jobs.config import DEFAULT_JOBS_CONFIG, JOB_NAMES, JobsConfig
from hippograph.jobs.runner import Execution, Job, RunOptions

JOBS: dict[str, Job] = {
    "pagerank": pagerank.run,
    "edges": edges.run,
    "decay": decay.run,
    "cluster": cluster.run,
    "consolidate": consolidate.job,
    "core": core.run,
    "profile": profile.run,
    "vocabulary": vocabulary.run,
}
assert tuple(JOBS) == JOB_NAMES


def job(name: str) -> Job:
    """The job called ``name``; InvalidInput naming the known jobs otherwise."""
    if name not in JOBS:
        raise InvalidInput("name", f"no job {name!r}; known jobs: {', '.join(JOBS)}")
    return JOBS[name]


def run_job(
    store: Store,
    name: str,
    config: JobsConfig = DEFAULT_JOBS_CONFIG,
    options: RunOptions | None = None,
) -> JobRun:
    """Run job ``name`` now and wait; raises LockHeld when it already runs elsewhere."""
    execution = Execution(store, name, job(name), config, options or RunOptions())
    execution.begin()
    return execution.execute()


def start_job(
    store: Store,
    name: str,
    config: JobsConfig = DEFAULT_JOBS_CONFIG,
    options: RunOptions | None = None,
) -> tuple[JobRun, threading.Thread]:
    """Lock and record job ``name`` now, run it in a background thread (for the API)."""
    execution = Execution(store, name, job(name), config, options or RunOptions())
    run = execution.begin()
    thread = threading.Thread(target=execution.execute, name=f"job-{name}", daemon=True)
    thread.start()
    return run, thread
