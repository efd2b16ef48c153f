"""When each job is due, from its last JobRun in the graph (so restarts and several workers
agree): a job is due ``interval`` seconds after its last run started, or ``job_retry_after_s``
after a run that did not finish (the next run resumes it). Interval 0 disables a job."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from hippograph.graph.model import parse_iso
from hippograph.graph.store.store import Store
from hippograph.graph.upkeep import jobruns
from hippograph.jobs.config import JOB_NAMES, JobsConfig


@dataclass(frozen=True, kw_only=True)
class Due:
    name: str
    at: datetime


def schedule(
    store: Store, config: JobsConfig, now: datetime, *, namespace: str | None = None
) -> list[Due]:
    """Every enabled job with the instant it is next due (maybe in the past), soonest first."""
    scope = namespace or jobruns.ALL_SCOPE
    plan = []
    for name in JOB_NAMES:
        interval = config.interval(name)
        if interval <= 0:
            continue
        last = jobruns.latest_run(store, name, scope)
        if last is None:
            plan.append(Due(name=name, at=now))
            continue
        wait = interval
        if last.status in jobruns.UNFINISHED:
            wait = min(interval, config.jobs.retry_after_s)
        plan.append(Due(name=name, at=parse_iso(last.started_at) + timedelta(seconds=wait)))
    return sorted(plan, key=lambda d: (d.at, d.name))
