"""Records of agent runs: a run of one task, its ordered steps, each step's tool calls, and what
is read from them (tool statistics, similar runs). Pure data, shared with the client."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# What a tool call can report; the failed ones feed warnings and tool statistics.
TOOL_STATUSES: tuple[str, ...] = (
    "pending", "running", "success", "failure", "error", "timeout", "cancelled",
)  # fmt: skip
FAILED_STATUSES: tuple[str, ...] = ("failure", "error", "timeout")
# A run is running until finished by its agent or abandoned (closed by the idle timeout).
RUN_STATUSES: tuple[str, ...] = ("running", "finished", "abandoned")


@dataclass(frozen=True, kw_only=True)
class RunToolCall:
    """One tool invocation of a step. ``arguments`` and ``result`` are JSON values as stored
    (a value too large is replaced by a ``{"truncated": ...}`` summary, see ``runs.bounds``)."""

    id: str
    run_id: str
    step: int
    seq: int  # order among the run's calls, from 1
    tool: str
    arguments: Any
    result: Any
    status: str
    duration_ms: int | None
    error: str | None
    at: str
    updated: str

    @property
    def failed(self) -> bool:
        return self.status in FAILED_STATUSES


@dataclass(frozen=True, kw_only=True)
class RunStep:
    """Step ``n`` (from 1) of a run, with its tool calls in order."""

    run_id: str
    n: int
    thought: str | None
    action: str | None
    observation: str | None
    at: str
    tool_calls: tuple[RunToolCall, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Run:
    """An agent's attempt at ``task``. ``steps`` is filled when the run is read whole (empty in
    lists); ``experience`` holds the ids of the memories distilled from it."""

    id: str
    namespace: str
    session: str | None
    agent: str | None
    task: str
    started: str
    ended: str | None
    outcome: str | None
    success: bool | None
    status: str
    step_count: int
    call_count: int
    steps: tuple[RunStep, ...] = ()
    experience: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class SimilarRun:
    run: Run
    score: float  # cosine of the two tasks' embeddings


@dataclass(frozen=True, kw_only=True)
class ErrorCount:
    error: str
    count: int


@dataclass(frozen=True, kw_only=True)
class ToolStats:
    """One tool's calls in a namespace. ``success_rate``: successes over the calls that ended
    (success or a failed status); None while none has. ``mean_duration_ms`` over the calls that
    reported a duration."""

    tool: str
    calls: int
    successes: int
    failures: int
    success_rate: float | None
    mean_duration_ms: float | None
    common_errors: tuple[ErrorCount, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Experience:
    """A memory a finished run was distilled into: ``kind`` is ``experience`` (the path that
    worked, a procedure) or ``warning`` (a failed route, a negative memory); ``action`` what the
    write path did (ADD, NOOP for a reinforced one, ...), or ``WEAKEN`` for a procedure this
    run failed on."""

    memory_id: str
    kind: str
    action: str
    content: str
