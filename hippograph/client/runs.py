"""Agent runs in the client: the operations of ``documents_runs``, their answers read into the
domain's run records (``hippograph.graph.runs.model``), and the methods ``Client`` and
``AsyncClient`` get from ``RunMethods`` and ``AsyncRunMethods``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from hippograph.client import documents_runs as docs
from hippograph.client.operations import Operation, _vars
from hippograph.client.records import Json
from hippograph.graph.runs.model import (
    ErrorCount,
    Experience,
    Run,
    RunStep,
    RunToolCall,
    SimilarRun,
    ToolStats,
)

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class FinishedRun:
    """A finished run, the memories it was distilled into, and by what (rules or llm)."""

    run: Run
    experience: tuple[Experience, ...]
    distiller: str


def read_call(d: Json) -> RunToolCall:
    return RunToolCall(
        id=d["id"], run_id=d["runId"], step=d["step"], seq=d["seq"], tool=d["tool"],
        arguments=d["arguments"], result=d["result"], status=d["status"].lower(),
        duration_ms=d["durationMs"], error=d["error"], at=d["at"], updated=d["updated"],
    )  # fmt: skip


def read_step(d: Json) -> RunStep:
    return RunStep(
        run_id=d["runId"], n=d["n"], thought=d["thought"], action=d["action"],
        observation=d["observation"], at=d["at"],
        tool_calls=tuple(read_call(c) for c in d["toolCalls"]),
    )  # fmt: skip


def read_run(d: Json, namespace: str) -> Run:
    return Run(
        id=d["id"], namespace=namespace, session=d["sessionId"], agent=d["agent"],
        task=d["task"], started=d["started"], ended=d["ended"], outcome=d["outcome"],
        success=d["success"], status=d["status"].lower(), step_count=d["stepCount"],
        call_count=d["callCount"], steps=tuple(read_step(s) for s in d.get("steps") or ()),
        experience=tuple(d["experience"]),
    )  # fmt: skip


def read_stats(d: Json) -> ToolStats:
    return ToolStats(
        tool=d["tool"], calls=d["calls"], successes=d["successes"], failures=d["failures"],
        success_rate=d["successRate"], mean_duration_ms=d["meanDurationMs"],
        common_errors=tuple(ErrorCount(error=e["error"], count=e["count"])
                            for e in d["commonErrors"]),
    )  # fmt: skip


def start_run(ns: str, task: str, session_id: str | None, agent: str | None) -> Operation[Run]:
    return Operation(
        docs.START_RUN,
        _vars(namespace=ns, task=task, sessionId=session_id, agent=agent),
        lambda d: read_run(d["startRun"], ns),
    )


def add_step(
    ns: str, run_id: str, thought: str | None, action: str | None, observation: str | None
) -> Operation[RunStep]:
    variables = _vars(namespace=ns, runId=run_id, thought=thought, action=action,
                      observation=observation)  # fmt: skip
    return Operation(docs.ADD_STEP, variables, lambda d: read_step(d["addStep"]))


def add_tool_call(
    ns: str,
    run_id: str,
    tool: str,
    arguments: Any,
    *,
    step: int | None,
    result: Any,
    status: str | None,
    duration_ms: float | None,
    error: str | None,
) -> Operation[RunToolCall]:
    variables = _vars(namespace=ns, runId=run_id, tool=tool, arguments=arguments, step=step,
                      result=result, status=status.upper() if status else None,
                      durationMs=duration_ms, error=error)  # fmt: skip
    return Operation(docs.ADD_TOOL_CALL, variables, lambda d: read_call(d["addToolCall"]))


def update_tool_call(
    ns: str,
    call_id: str,
    *,
    status: str | None,
    result: Any,
    duration_ms: float | None,
    error: str | None,
) -> Operation[RunToolCall]:
    variables = _vars(namespace=ns, id=call_id, status=status.upper() if status else None,
                      result=result, durationMs=duration_ms, error=error)  # fmt: skip
    return Operation(docs.UPDATE_TOOL_CALL, variables, lambda d: read_call(d["updateToolCall"]))


def finish_run(ns: str, run_id: str, success: bool, outcome: str | None) -> Operation[FinishedRun]:
    def read(d: Json) -> FinishedRun:
        done = d["finishRun"]
        made = tuple(
            Experience(
                memory_id=e["memoryId"], kind=e["kind"], action=e["action"], content=e["content"]
            )  # fmt: skip
            for e in done["experience"]
        )
        return FinishedRun(run=read_run(done["run"], ns), experience=made,
                           distiller=done["distiller"])  # fmt: skip

    return Operation(
        docs.FINISH_RUN,
        _vars(namespace=ns, runId=run_id, success=success, outcome=outcome),
        read,
    )


def run(ns: str, run_id: str) -> Operation[Run | None]:
    return Operation(
        docs.RUN,
        _vars(namespace=ns, id=run_id),
        lambda d: None if d["run"] is None else read_run(d["run"], ns),
    )


def runs(ns: str, session_id: str | None, first: int | None) -> Operation[list[Run]]:
    return Operation(
        docs.RUNS,
        _vars(namespace=ns, sessionId=session_id, first=first),
        lambda d: [read_run(r, ns) for r in d["runs"]],
    )


def memory_runs(ns: str, memory_id: str) -> Operation[list[Run]]:
    return Operation(
        docs.MEMORY_RUNS,
        _vars(namespace=ns, memoryId=memory_id),
        lambda d: [read_run(r, ns) for r in d["memoryRuns"]],
    )


def similar_runs(
    ns: str, task: str, k: int | None, success: bool | None
) -> Operation[list[SimilarRun]]:
    return Operation(
        docs.SIMILAR_RUNS,
        _vars(namespace=ns, task=task, k=k, success=success),
        lambda d: [
            SimilarRun(run=read_run(s["run"], ns), score=s["score"]) for s in d["similarRuns"]
        ],  # fmt: skip
    )


def tool_stats(ns: str, tool: str | None) -> Operation[list[ToolStats]]:
    return Operation(
        docs.TOOL_STATS,
        _vars(namespace=ns, tool=tool),
        lambda d: [read_stats(s) for s in d["toolStats"]],
    )


class RunMethods:
    """``Client``'s run methods: record a run as the agent works, then read it back."""

    namespace: str

    def _run(self, op: Operation[T]) -> T:
        raise NotImplementedError

    def start_run(
        self, task: str, *, session_id: str | None = None, agent: str | None = None
    ) -> Run:
        """Start recording a run of ``task``."""
        return self._run(start_run(self.namespace, task, session_id, agent))

    def add_step(
        self,
        run_id: str,
        *,
        thought: str | None = None,
        action: str | None = None,
        observation: str | None = None,
    ) -> RunStep:
        """The run's next step (at least one of its texts)."""
        return self._run(add_step(self.namespace, run_id, thought, action, observation))

    def add_tool_call(
        self,
        run_id: str,
        tool: str,
        arguments: Any = None,
        *,
        step: int | None = None,
        result: Any = None,
        status: str | None = None,
        duration_ms: float | None = None,
        error: str | None = None,
    ) -> RunToolCall:
        """A tool call of ``step`` (None: the latest); status defaults to pending."""
        return self._run(add_tool_call(self.namespace, run_id, tool, arguments, step=step,
                                       result=result, status=status, duration_ms=duration_ms,
                                       error=error))  # fmt: skip

    def update_tool_call(
        self,
        call_id: str,
        *,
        status: str | None = None,
        result: Any = None,
        duration_ms: float | None = None,
        error: str | None = None,
    ) -> RunToolCall:
        """What a call reported later; a value left None is kept."""
        return self._run(update_tool_call(self.namespace, call_id, status=status, result=result,
                                          duration_ms=duration_ms, error=error))  # fmt: skip

    def finish_run(self, run_id: str, *, success: bool, outcome: str | None = None) -> FinishedRun:
        """End the run; its experience is distilled into memories."""
        return self._run(finish_run(self.namespace, run_id, success, outcome))

    def run(self, run_id: str) -> Run | None:
        """A run whole (None: no such run in the namespace)."""
        return self._run(run(self.namespace, run_id))

    def runs(self, *, session_id: str | None = None, first: int | None = None) -> list[Run]:
        """The namespace's runs, newest first, without their steps."""
        return self._run(runs(self.namespace, session_id, first))

    def memory_runs(self, memory_id: str) -> list[Run]:
        """The runs a memory was distilled from, newest first."""
        return self._run(memory_runs(self.namespace, memory_id))

    def similar_runs(
        self, task: str, *, k: int | None = None, success: bool | None = None
    ) -> list[SimilarRun]:
        """The runs whose task is nearest ``task``, best first."""
        return self._run(similar_runs(self.namespace, task, k, success))

    def tool_stats(self, tool: str | None = None) -> list[ToolStats]:
        """Per-tool call counts, success rate, mean duration and common errors."""
        return self._run(tool_stats(self.namespace, tool))


class AsyncRunMethods:
    """``AsyncClient``'s run methods (``RunMethods``, awaited)."""

    namespace: str

    async def _run(self, op: Operation[T]) -> T:
        raise NotImplementedError

    async def start_run(
        self, task: str, *, session_id: str | None = None, agent: str | None = None
    ) -> Run:
        return await self._run(start_run(self.namespace, task, session_id, agent))

    async def add_step(
        self,
        run_id: str,
        *,
        thought: str | None = None,
        action: str | None = None,
        observation: str | None = None,
    ) -> RunStep:
        return await self._run(add_step(self.namespace, run_id, thought, action, observation))

    async def add_tool_call(
        self,
        run_id: str,
        tool: str,
        arguments: Any = None,
        *,
        step: int | None = None,
        result: Any = None,
        status: str | None = None,
        duration_ms: float | None = None,
        error: str | None = None,
    ) -> RunToolCall:
        return await self._run(add_tool_call(self.namespace, run_id, tool, arguments, step=step,
                                             result=result, status=status,
                                             duration_ms=duration_ms, error=error))  # fmt: skip

    async def update_tool_call(
        self,
        call_id: str,
        *,
        status: str | None = None,
        result: Any = None,
        duration_ms: float | None = None,
        error: str | None = None,
    ) -> RunToolCall:
        return await self._run(update_tool_call(self.namespace, call_id, status=status,
                                                result=result, duration_ms=duration_ms,
                                                error=error))  # fmt: skip

    async def finish_run(
        self, run_id: str, *, success: bool, outcome: str | None = None
    ) -> FinishedRun:
        return await self._run(finish_run(self.namespace, run_id, success, outcome))

    async def run(self, run_id: str) -> Run | None:
        return await self._run(run(self.namespace, run_id))

    async def runs(self, *, session_id: str | None = None, first: int | None = None) -> list[Run]:
        return await self._run(runs(self.namespace, session_id, first))

    async def memory_runs(self, memory_id: str) -> list[Run]:
        return await self._run(memory_runs(self.namespace, memory_id))

    async def similar_runs(
        self, task: str, *, k: int | None = None, success: bool | None = None
    ) -> list[SimilarRun]:
        return await self._run(similar_runs(self.namespace, task, k, success))

    async def tool_stats(self, tool: str | None = None) -> list[ToolStats]:
        return await self._run(tool_stats(self.namespace, tool))
