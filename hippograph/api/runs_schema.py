"""GraphQL for agent runs: written as the agent works (``startRun``, ``addStep``,
``addToolCall``, ``updateToolCall``, ``finishRun``, which distils the run into experience), and
read back (``run`` whole, ``runs``, ``similarRuns``, ``toolStats``).

Steps and tool calls are light writes (one short transaction, no model): they run on
Starlette's pool, not behind the heavy-work gate, so an agent logging as it goes never waits
for recalls. Starting a run embeds its task and finishing one writes memories: heavy."""

from __future__ import annotations

from enum import Enum
from typing import cast

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.scalars import JSON
from strawberry.types import Info

from hippograph.api.context import runtime
from hippograph.api.work import heavy
from hippograph.graph.runs import experience, read, record
from hippograph.graph.runs import model as runs


@strawberry.enum
class ToolCallStatus(Enum):
    PENDING = "pending"
    RUNNING = "running"
    SUCCESS = "success"
    FAILURE = "failure"
    ERROR = "error"
    TIMEOUT = "timeout"
    CANCELLED = "cancelled"


@strawberry.enum
class RunStatus(Enum):
    RUNNING = "running"
    FINISHED = "finished"
    ABANDONED = "abandoned"


@strawberry.type
class RunToolCall:
    id: strawberry.ID
    run_id: strawberry.ID
    step: int = strawberry.field(description="the number of the step it belongs to")
    seq: int = strawberry.field(description="its place among the run's calls, from 1")
    tool: str
    arguments: JSON = strawberry.field(
        description='as sent; past 4,000 characters of JSON, a {"truncated": ...} summary'
    )
    result: JSON | None = strawberry.field(description="as reported, bounded like arguments")
    status: ToolCallStatus
    duration_ms: int | None
    error: str | None
    at: str = strawberry.field(description="when it was recorded")
    updated: str = strawberry.field(description="when it last reported")

    @classmethod
    def of(cls, c: runs.RunToolCall) -> RunToolCall:
        return cls(
            id=strawberry.ID(c.id), run_id=strawberry.ID(c.run_id), step=c.step, seq=c.seq,
            tool=c.tool, arguments=cast(JSON, c.arguments), result=cast(JSON, c.result),
            status=ToolCallStatus(c.status), duration_ms=c.duration_ms, error=c.error, at=c.at,
            updated=c.updated,
        )  # fmt: skip


@strawberry.type
class RunStep:
    run_id: strawberry.ID
    n: int = strawberry.field(description="its number in the run, from 1")
    thought: str | None
    action: str | None
    observation: str | None
    at: str
    tool_calls: list[RunToolCall]

    @classmethod
    def of(cls, s: runs.RunStep) -> RunStep:
        return cls(
            run_id=strawberry.ID(s.run_id), n=s.n, thought=s.thought, action=s.action,
            observation=s.observation, at=s.at,
            tool_calls=[RunToolCall.of(c) for c in s.tool_calls],
        )  # fmt: skip


@strawberry.type
class Run:
    id: strawberry.ID
    session_id: str | None
    agent: str | None
    task: str
    started: str
    ended: str | None
    outcome: str | None
    success: bool | None
    status: RunStatus
    step_count: int
    call_count: int
    steps: list[RunStep] = strawberry.field(
        description="in order, with their tool calls; empty in lists (read one with run)"
    )
    experience: list[strawberry.ID] = strawberry.field(
        description="the memories distilled from it (DERIVED_FROM the run)"
    )

    @classmethod
    def of(cls, r: runs.Run) -> Run:
        return cls(
            id=strawberry.ID(r.id), session_id=r.session, agent=r.agent, task=r.task,
            started=r.started, ended=r.ended, outcome=r.outcome, success=r.success,
            status=RunStatus(r.status), step_count=r.step_count, call_count=r.call_count,
            steps=[RunStep.of(s) for s in r.steps],
            experience=[strawberry.ID(i) for i in r.experience],
        )  # fmt: skip


@strawberry.type
class RunExperience:
    memory_id: strawberry.ID
    kind: str = strawberry.field(
        description="experience (the path that worked, a procedure) or warning (a failed "
        "route, a negative memory)"
    )
    action: str = strawberry.field(
        description="what the write path did (ADD; NOOP: an earlier procedure reinforced), or "
        "WEAKEN: a recorded procedure this run failed on"
    )
    content: str


@strawberry.type
class FinishRunPayload:
    run: Run
    experience: list[RunExperience]
    distiller: str = strawberry.field(description="rules (offline) or llm")


@strawberry.type
class SimilarRun:
    run: Run
    score: float = strawberry.field(description="cosine of the two tasks")


@strawberry.type
class ToolError:
    error: str
    count: int


@strawberry.type
class ToolStats:
    tool: str
    calls: int
    successes: int
    failures: int = strawberry.field(description="calls that ended in failure, error or timeout")
    success_rate: float | None = strawberry.field(
        description="successes over the calls that ended; null while none has"
    )
    mean_duration_ms: float | None
    common_errors: list[ToolError]

    @classmethod
    def of(cls, s: runs.ToolStats) -> ToolStats:
        return cls(
            tool=s.tool, calls=s.calls, successes=s.successes, failures=s.failures,
            success_rate=s.success_rate, mean_duration_ms=s.mean_duration_ms,
            common_errors=[ToolError(error=e.error, count=e.count) for e in s.common_errors],
        )  # fmt: skip


@strawberry.type
class RunsQuery:
    @strawberry.field(description="A run whole: its steps in order, each with its tool calls.")
    async def run(self, info: Info, namespace: str, id: strawberry.ID) -> Run | None:
        rt = runtime(info)
        idle = rt.settings.write.run_idle_timeout_s
        found = await run_in_threadpool(lambda: read.get(rt.store, namespace, str(id), idle))
        return None if found is None else Run.of(found)

    @strawberry.field(description="The namespace's runs (of one session), newest first.")
    async def runs(
        self, info: Info, namespace: str, session_id: str | None = None, first: int = 20
    ) -> list[Run]:
        rt = runtime(info)
        found = await run_in_threadpool(
            lambda: read.runs(
                rt.store,
                namespace,
                session=session_id,
                first=first,
                idle_timeout_s=rt.settings.write.run_idle_timeout_s,
            )  # fmt: skip
        )
        return [Run.of(r) for r in found]

    @strawberry.field(
        description="The runs a memory was distilled from (it is DERIVED_FROM them), newest "
        "first: where an experience or a warning came from."
    )
    async def memory_runs(self, info: Info, namespace: str, memory_id: strawberry.ID) -> list[Run]:
        rt = runtime(info)
        found = await run_in_threadpool(lambda: read.of_memory(rt.store, namespace, str(memory_id)))
        return [Run.of(r) for r in found]

    @strawberry.field(
        description="The runs whose task is nearest this one (by embedding), best first; "
        "success keeps those that succeeded (true) or failed (false)."
    )
    async def similar_runs(
        self, info: Info, namespace: str, task: str, k: int = 5, success: bool | None = None
    ) -> list[SimilarRun]:
        rt = runtime(info)
        found = await heavy(
            info,
            lambda: read.similar(
                rt.store,
                rt.embedder,
                namespace,
                task,
                k=k,
                success=success,
                idle_timeout_s=rt.settings.write.run_idle_timeout_s,
            ),  # fmt: skip
        )
        return [SimilarRun(run=Run.of(s.run), score=s.score) for s in found]

    @strawberry.field(
        description="Per tool (or one): calls, successes, failures, success rate, mean "
        "duration and the most common errors; most called first."
    )
    async def tool_stats(
        self, info: Info, namespace: str, tool: str | None = None
    ) -> list[ToolStats]:
        rt = runtime(info)
        found = await run_in_threadpool(lambda: read.tool_stats(rt.store, namespace, tool))
        return [ToolStats.of(s) for s in found]


@strawberry.type
class RunsMutation:
    @strawberry.mutation(description="Start recording a run of a task.")
    async def start_run(
        self,
        info: Info,
        namespace: str,
        task: str,
        session_id: str | None = None,
        agent: str | None = None,
    ) -> Run | None:
        rt = runtime(info)
        started = await heavy(
            info,
            lambda: record.start(
                rt.store,
                rt.embedder,
                namespace,
                task,
                session=session_id,
                agent=agent,
                content_filter=rt.policy.content_filter,
            ),  # fmt: skip
        )
        return Run.of(started)

    @strawberry.mutation(description="The run's next step (at least one of its texts).")
    async def add_step(
        self,
        info: Info,
        namespace: str,
        run_id: strawberry.ID,
        thought: str | None = None,
        action: str | None = None,
        observation: str | None = None,
    ) -> RunStep | None:
        rt = runtime(info)
        step = await run_in_threadpool(
            lambda: record.add_step(
                rt.store,
                namespace,
                str(run_id),
                thought=thought,
                action=action,
                observation=observation,
                content_filter=rt.policy.content_filter,
            )  # fmt: skip
        )
        return RunStep.of(step)

    @strawberry.mutation(
        description="A tool call of a step (step omitted: the run's latest; a run without "
        "steps gets one). Report its end now (status, result, durationMs, error) or later "
        "with updateToolCall."
    )
    async def add_tool_call(
        self,
        info: Info,
        namespace: str,
        run_id: strawberry.ID,
        tool: str,
        arguments: JSON | None = None,
        step: int | None = None,
        result: JSON | None = None,
        status: ToolCallStatus = ToolCallStatus.PENDING,
        duration_ms: float | None = None,
        error: str | None = None,
    ) -> RunToolCall | None:
        rt = runtime(info)
        call = await run_in_threadpool(
            lambda: record.add_tool_call(
                rt.store,
                namespace,
                str(run_id),
                tool,
                arguments=arguments,
                step=step,
                result=result,
                status=status.value,
                duration_ms=duration_ms,
                error=error,
                content_filter=rt.policy.content_filter,
            )  # fmt: skip
        )
        return RunToolCall.of(call)

    @strawberry.mutation(description="What a call reported later; an omitted value is kept.")
    async def update_tool_call(
        self,
        info: Info,
        namespace: str,
        id: strawberry.ID,
        status: ToolCallStatus | None = None,
        result: JSON | None = None,
        duration_ms: float | None = None,
        error: str | None = None,
    ) -> RunToolCall | None:
        rt = runtime(info)
        call = await run_in_threadpool(
            lambda: record.update_tool_call(
                rt.store,
                namespace,
                str(id),
                status=None if status is None else status.value,
                result=result,
                duration_ms=duration_ms,
                error=error,
                content_filter=rt.policy.content_filter,
            )  # fmt: skip
        )
        return RunToolCall.of(call)

    @strawberry.mutation(
        description="End the run and distil it (the configured LLM, else offline rules): the "
        "path that worked becomes a procedure memory, each failed route a negative memory "
        "whose triggers are the task's key words; a run that succeeds the same way as an "
        "earlier one reinforces its procedure, one that fails on it weakens it."
    )
    async def finish_run(
        self,
        info: Info,
        namespace: str,
        run_id: strawberry.ID,
        success: bool,
        outcome: str | None = None,
    ) -> FinishRunPayload | None:
        rt = runtime(info)
        done = await heavy(
            info,
            lambda: experience.finish(
                rt.store,
                rt.embedder,
                namespace,
                str(run_id),
                success=success,
                outcome=outcome,
                policy=rt.policy,
                llm=rt.llm,
            ),  # fmt: skip
        )
        return FinishRunPayload(
            run=Run.of(done.run),
            experience=[
                RunExperience(
                    memory_id=strawberry.ID(e.memory_id),
                    kind=e.kind,
                    action=e.action,
                    content=e.content,
                )  # fmt: skip
                for e in done.experience
            ],
            distiller=done.distiller,
        )
