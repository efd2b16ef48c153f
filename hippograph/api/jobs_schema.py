"""GraphQL for maintenance: job runs and gaps (queries), runJob and feedback (mutations).

``JobsQuery`` and ``JobsMutation`` are merged into the main schema with
``strawberry.tools.merge_types``.
"""

from __future__ import annotations

import json
from enum import Enum

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.scalars import JSON
from strawberry.types import Info

from hippograph.api.access import principal_of
from hippograph.api.context import runtime
from hippograph.graph import validate
from hippograph.graph.recall import feedback as feedback_ops
from hippograph.graph.upkeep import jobruns
from hippograph.jobs import registry
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import RunOptions


@strawberry.enum
class JobName(Enum):
    PAGERANK = "pagerank"
    EDGES = "edges"
    DECAY = "decay"
    CLUSTER = "cluster"
    CONSOLIDATE = "consolidate"
    CORE = "core"
    PROFILE = "profile"
    VOCABULARY = "vocabulary"


@strawberry.enum
class JobStatus(Enum):
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    INTERRUPTED = "interrupted"
    ABANDONED = "abandoned"


@strawberry.type
class JobRun:
    id: strawberry.ID
    name: str
    status: JobStatus
    trigger: str
    scope: str
    holder: str
    started_at: str
    ended_at: str | None
    as_of: str
    done: int
    total: int
    counts: JSON
    error: str | None
    resumed_from: str | None

    @classmethod
    def of(cls, run: jobruns.JobRun) -> JobRun:
        return cls(
            id=strawberry.ID(run.id),
            name=run.name,
            status=JobStatus(run.status),
            trigger=run.trigger,
            scope=run.scope,
            holder=run.holder,
            started_at=run.started_at,
            ended_at=run.ended_at,
            as_of=run.as_of,
            done=run.done,
            total=run.total,
            counts=json.loads(json.dumps(dict(run.counts))),
            error=run.error,
            resumed_from=run.resumed_from,
        )


@strawberry.type
class Gap:
    id: strawberry.ID
    context: str
    best_score: float | None
    count: int
    first_at: str
    last_at: str


@strawberry.type
class FeedbackPayload:
    memory_id: strawberry.ID
    confidence: float
    helpful_count: int
    unhelpful_count: int


@strawberry.type
class JobsQuery:
    @strawberry.field(description="Recent runs of the maintenance jobs, newest first.")
    async def job_runs(
        self, info: Info, name: JobName | None = None, first: int = 20
    ) -> list[JobRun]:
        rt = runtime(info)
        runs = await run_in_threadpool(
            jobruns.list_runs, rt.store, name.value if name else None, first
        )
        caller = principal_of(info.context)  # a tenant sees the runs of its own namespaces
        return [JobRun.of(r) for r in runs if caller.sees(r.scope)]

    @strawberry.field(description="Contexts for which recall found nothing relevant.")
    async def gaps(self, info: Info, namespace: str, first: int = 20) -> list[Gap]:
        rt = runtime(info)
        found = await run_in_threadpool(feedback_ops.list_gaps, rt.store, namespace, first)
        return [
            Gap(
                id=strawberry.ID(g.id),
                context=g.context,
                best_score=g.best_score,
                count=g.count,
                first_at=g.first_at,
                last_at=g.last_at,
            )
            for g in found
        ]


@strawberry.type
class JobsMutation:
    @strawberry.mutation(
        description=(
            "Start a maintenance job now; returns its run (status RUNNING), to poll with "
            "jobRuns. namespace restricts it to one namespace (default: all). force takes the "
            "job's lock over from a live holder. Fails with code LOCKED when the job already "
            "runs."
        )
    )
    async def run_job(
        self, info: Info, name: JobName, force: bool = False, namespace: str | None = None
    ) -> JobRun | None:
        rt = runtime(info)
        config = JobsConfig.from_settings(rt.settings)
        if namespace is not None:
            validate.namespace(namespace)
        options = RunOptions(trigger="api", force=force, namespace=namespace)
        run, _thread = await run_in_threadpool(
            registry.start_job, rt.store, name.value, config, options
        )
        return JobRun.of(run)

    @strawberry.mutation(
        description="Rate a memory: helpful raises and confirms it, unhelpful lowers it gently."
    )
    async def feedback(
        self, info: Info, namespace: str, memory_id: strawberry.ID, helpful: bool
    ) -> FeedbackPayload | None:
        rt = runtime(info)
        rating = await run_in_threadpool(
            feedback_ops.feedback, rt.store, namespace, str(memory_id), helpful
        )
        return FeedbackPayload(
            memory_id=strawberry.ID(rating.memory_id),
            confidence=rating.confidence,
            helpful_count=rating.helpful_count,
            unhelpful_count=rating.unhelpful_count,
        )
