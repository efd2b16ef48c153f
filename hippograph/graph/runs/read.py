"""Reading runs: one run whole (its steps and tool calls in order, the memories distilled from
it), a namespace's runs, the runs whose task resembles a new one, and per-tool statistics.

Reads close abandoned runs first (``close_abandoned``): a run nobody wrote to for the idle
timeout (``HIPPOGRAPH_RUN_IDLE_TIMEOUT_S``) is ended as ``abandoned``, unsuccessful, and its
calls still pending or running become ``timeout``. No job has to run for that: whoever reads
the run sees it closed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from hippograph.graph import clock, validate
from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import to_iso
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.runs.bounds import read_json
from hippograph.graph.runs.model import (
    FAILED_STATUSES,
    ErrorCount,
    Run,
    RunStep,
    RunToolCall,
    SimilarRun,
    ToolStats,
)
from hippograph.graph.store.store import Store, vector

DEFAULT_IDLE_TIMEOUT_S = 3600.0
ABANDONED = "abandoned: no step, tool call or finish for {seconds:g} s"
MAX_STALE = 1000  # runs closed by one read; the next read closes more
MAX_TOOLS = 500  # tools in one statistics answer
ERRORS_PER_TOOL = 3


def to_run(
    row: Mapping[str, Any], steps: Sequence[RunStep] = (), experience: Sequence[str] = ()
) -> Run:
    return Run(
        id=row["id"],
        namespace=row["namespace"],
        session=row.get("session"),
        agent=row.get("agent"),
        task=row["task"],
        started=row["started"],
        ended=row.get("ended"),
        outcome=row.get("outcome"),
        success=row.get("success"),
        status=row.get("status") or "running",
        step_count=int(row.get("steps") or 0),
        call_count=int(row.get("calls") or 0),
        steps=tuple(steps),
        experience=tuple(experience),
    )


def to_step(row: Mapping[str, Any], calls: Sequence[RunToolCall] = ()) -> RunStep:
    return RunStep(
        run_id=row["run_id"],
        n=int(row["n"]),
        thought=row.get("thought"),
        action=row.get("action"),
        observation=row.get("observation"),
        at=row["at"],
        tool_calls=tuple(calls),
    )


def to_call(row: Mapping[str, Any]) -> RunToolCall:
    duration = row.get("duration_ms")
    return RunToolCall(
        id=row["id"],
        run_id=row["run_id"],
        step=int(row["step"]),
        seq=int(row["seq"]),
        tool=row["tool"],
        arguments=read_json(row.get("arguments")),
        result=read_json(row.get("result")),
        status=row["status"],
        duration_ms=None if duration is None else int(duration),
        error=row.get("error"),
        at=row["at"],
        updated=row.get("updated") or row["at"],
    )


def close_abandoned(
    store: Store,
    namespace: str,
    idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
    ids: Sequence[str] | None = None,
) -> list[str]:
    """End the namespace's runs (or those of ``ids``) idle for ``idle_timeout_s``; their ids."""
    now = clock.now()
    cutoff = to_iso(now - timedelta(seconds=idle_timeout_s))
    if ids is None:
        rows = store.read("run/stale", namespace=namespace, cutoff=cutoff, limit=MAX_STALE)
        ids = [r["id"] for r in rows]
    if not ids:
        return []
    stamp, outcome = to_iso(now), ABANDONED.format(seconds=idle_timeout_s)

    def work(tx: Any) -> list[str]:
        closed = [r["id"] for r in tx.run("run/abandon", namespace=namespace, ids=list(ids),
                                            cutoff=cutoff, now=stamp, outcome=outcome)]  # fmt: skip
        if closed:
            tx.run("run/time_out_calls", namespace=namespace, ids=closed, now=stamp,
                   error="the run was abandoned before the call reported an end")  # fmt: skip
        return closed

    return store.write_tx(work)


def get(
    store: Store,
    namespace: str,
    run_id: str,
    idle_timeout_s: float | None = DEFAULT_IDLE_TIMEOUT_S,
) -> Run | None:
    """The run whole, its steps and their calls in order; None when the namespace has none of
    that id. An open run idle for ``idle_timeout_s`` is closed first (None: read as it is)."""
    validate.namespace(namespace)
    run_id = validate.memory_id(run_id, "runId")
    rows = store.read("run/get", namespace=namespace, run_id=run_id)
    if not rows:
        return None
    head = rows[0]["run"]
    idle = idle_timeout_s is not None and head.get("ended") is None and _idle(head, idle_timeout_s)
    if idle and close_abandoned(store, namespace, idle_timeout_s or 0, ids=[run_id]):
        head = store.read("run/get", namespace=namespace, run_id=run_id)[0]["run"]
    steps: dict[int, tuple[dict[str, Any], list[RunToolCall]]] = {}
    for row in store.read("run/steps", namespace=namespace, run_id=run_id):
        step = row["step"]
        entry = steps.setdefault(int(step["n"]), (step, []))
        if row.get("call"):
            entry[1].append(to_call(row["call"]))
    ordered = [to_step(s, calls) for _, (s, calls) in sorted(steps.items())]
    made = store.read("run/experience", namespace=namespace, run_id=run_id)
    return to_run(head, ordered, [r["id"] for r in made])


def _idle(head: Mapping[str, Any], idle_timeout_s: float) -> bool:
    touched = head.get("touched") or head["started"]
    return bool(touched < to_iso(clock.now() - timedelta(seconds=idle_timeout_s)))


def runs(
    store: Store,
    namespace: str,
    *,
    session: str | None = None,
    first: int = 20,
    idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
) -> list[Run]:
    """The namespace's runs (of ``session`` when given), newest first, without their steps."""
    validate.namespace(namespace)
    if session is not None:
        validate.identifier(session, "sessionId")
    first = _first(first)
    close_abandoned(store, namespace, idle_timeout_s)
    rows = store.read("run/list", namespace=namespace, session=session, first=first)
    return [to_run(r["run"]) for r in rows]


def of_memory(store: Store, namespace: str, memory_id: str) -> list[Run]:
    """The runs ``memory_id`` was distilled from (it is ``DERIVED_FROM`` them), newest first,
    without their steps: an experience or warning memory leads back to the run it came from."""
    validate.namespace(namespace)
    memory_id = validate.memory_id(memory_id, "memoryId")
    rows = store.read("run/of_memory", namespace=namespace, memory_id=memory_id)
    return [to_run(r["run"]) for r in rows]


def similar(
    store: Store,
    embedder: Embedder,
    namespace: str,
    task: str,
    *,
    k: int = 5,
    success: bool | None = None,
    idle_timeout_s: float = DEFAULT_IDLE_TIMEOUT_S,
) -> list[SimilarRun]:
    """The ``k`` runs whose task is nearest ``task`` (by embedding), best first; ``success``
    keeps only those that succeeded (True) or did not (False)."""
    validate.namespace(namespace)
    text = validate.short_text(task, "task", 2000)
    k = _first(k, "k")
    close_abandoned(store, namespace, idle_timeout_s)
    embedding = vector(embedder.embed([text])[0])
    rows = store.read("run/similar", namespace=namespace, embedding=embedding, k=k, success=success)
    return [SimilarRun(run=to_run(r["run"]), score=float(r["score"])) for r in rows]


def tool_stats(store: Store, namespace: str, tool: str | None = None) -> list[ToolStats]:
    """Per tool (or only ``tool``): calls, successes, failures, success rate, mean duration and
    the most common errors; most called first."""
    validate.namespace(namespace)
    if tool is not None:
        validate.identifier(tool, "tool", 128)
    params = {"namespace": namespace, "tool": tool, "limit": MAX_TOOLS}
    errors: dict[str, list[ErrorCount]] = {}
    for row in store.read("run/tool_errors", **{**params, "limit": MAX_TOOLS * 10}):
        found = errors.setdefault(row["tool"], [])
        if len(found) < ERRORS_PER_TOOL:
            found.append(ErrorCount(error=row["error"], count=int(row["count"])))
    stats = []
    for row in store.read("run/tool_stats", **params, failed=list(FAILED_STATUSES)):
        successes, failures = int(row["successes"]), int(row["failures"])
        ended = successes + failures
        mean = row.get("mean_duration_ms")
        stats.append(
            ToolStats(
                tool=row["tool"],
                calls=int(row["calls"]),
                successes=successes,
                failures=failures,
                success_rate=successes / ended if ended else None,
                mean_duration_ms=None if mean is None else float(mean),
                common_errors=tuple(errors.get(row["tool"], ())),
            )
        )
    return stats


def _first(value: int, field: str = "first") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 200:
        raise InvalidInput(field, f"{value!r} is outside 1..200", limit=200)
    return value
