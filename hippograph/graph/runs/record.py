"""Recording a run as the agent works: ``start``, then ``add_step`` and ``add_tool_call`` (and
``update_tool_call`` when a call reports later), then ``finish``.

Each is one short transaction, most of them one statement: an agent logs as it goes, so a step
or a call must cost a few milliseconds (``bench/runs.py``). A write to a run of another
namespace, an unknown run or one that has ended changes nothing and raises a typed error.
"""

from __future__ import annotations

import uuid
from typing import Any

from hippograph.graph import validate
from hippograph.graph.errors import Conflict, InvalidInput, NotFound
from hippograph.graph.model import now_iso
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.runs import bounds
from hippograph.graph.runs.bounds import Filter
from hippograph.graph.runs.model import Run, RunStep, RunToolCall
from hippograph.graph.runs.read import to_call, to_run, to_step
from hippograph.graph.store.store import Store, vector


def start(
    store: Store,
    embedder: Embedder,
    namespace: str,
    task: str,
    *,
    session: str | None = None,
    agent: str | None = None,
    content_filter: Filter | None = None,
) -> Run:
    """A new run of ``task`` (embedded, for ``similarRuns`` and reinforcement)."""
    validate.namespace(namespace)
    text = bounds.task(task, content_filter)
    session = bounds.name(session, "sessionId")
    agent = bounds.name(agent, "agent")
    embedding = vector(embedder.embed([text])[0])
    rows = store.write(
        "run/start", id=str(uuid.uuid4()), namespace=namespace, session=session, agent=agent,
        task=text, embedding=embedding, now=now_iso(),
    )  # fmt: skip
    return to_run(rows[0]["run"])


def add_step(
    store: Store,
    namespace: str,
    run_id: str,
    *,
    thought: str | None = None,
    action: str | None = None,
    observation: str | None = None,
    content_filter: Filter | None = None,
) -> RunStep:
    """The run's next step (numbered from 1); at least one of its texts is needed."""
    validate.namespace(namespace)
    run_id = validate.memory_id(run_id, "runId")
    texts = {
        "thought": bounds.text(thought, "thought", content_filter),
        "action": bounds.text(action, "action", content_filter),
        "observation": bounds.text(observation, "observation", content_filter),
    }
    if not any(texts.values()):
        raise InvalidInput("thought", "a step needs a thought, an action or an observation")
    rows = store.write("run/add_step", namespace=namespace, run_id=run_id, now=now_iso(), **texts)
    if not rows:
        _refused(store, namespace, run_id)
    return to_step(rows[0]["step"])


def add_tool_call(
    store: Store,
    namespace: str,
    run_id: str,
    tool: str,
    *,
    arguments: Any = None,
    step: int | None = None,
    result: Any = None,
    status: str = "pending",
    duration_ms: float | None = None,
    error: str | None = None,
    content_filter: Filter | None = None,
) -> RunToolCall:
    """A tool call of step ``step`` (None: the run's latest; a run without steps gets one whose
    action is the tool's name). ``arguments`` and ``result`` are JSON values."""
    validate.namespace(namespace)
    run_id = validate.memory_id(run_id, "runId")
    name = bounds.tool(tool)
    params: dict[str, Any] = {
        "namespace": namespace,
        "run_id": run_id,
        "id": str(uuid.uuid4()),
        "tool": name,
        "step": bounds.step_number(step),
        "arguments": bounds.json_value(arguments, "arguments", content_filter) or "{}",
        "result": bounds.json_value(result, "result", content_filter),
        "status": bounds.status(status),
        "duration_ms": bounds.duration(duration_ms),
        "error": bounds.text(error, "error", content_filter),
    }
    rows = store.write("run/add_tool_call", now=now_iso(), **params)
    if not rows:
        # Returns only for a run without steps: the call opens its first step.
        _refused(store, namespace, run_id, step=step, call=True)
        add_step(store, namespace, run_id, action=name)
        rows = store.write("run/add_tool_call", now=now_iso(), **params)
        if not rows:
            _refused(store, namespace, run_id, step=step)
    return to_call(rows[0]["call"])


def update_tool_call(
    store: Store,
    namespace: str,
    call_id: str,
    *,
    status: str | None = None,
    result: Any = None,
    duration_ms: float | None = None,
    error: str | None = None,
    content_filter: Filter | None = None,
) -> RunToolCall:
    """What a call reported after it was recorded; a value left None is kept."""
    validate.namespace(namespace)
    call_id = validate.memory_id(call_id, "id")
    rows = store.write(
        "run/update_tool_call", namespace=namespace, id=call_id, now=now_iso(),
        status=None if status is None else bounds.status(status),
        result=bounds.json_value(result, "result", content_filter),
        duration_ms=bounds.duration(duration_ms),
        error=bounds.text(error, "error", content_filter),
    )  # fmt: skip
    if rows:
        return to_call(rows[0]["call"])
    heads = store.read("run/call_head", namespace=namespace, id=call_id)
    if not heads:
        raise NotFound("tool call", call_id, field="id")
    raise Conflict(
        f"id: the run {heads[0]['run_id']} of tool call {call_id} has ended "
        f"({heads[0]['status']}); its calls no longer change"
    )


def finish(
    store: Store,
    namespace: str,
    run_id: str,
    *,
    success: bool,
    outcome: str | None = None,
    path_key: str | None = None,
    route_key: str | None = None,
    content_filter: Filter | None = None,
) -> Run:
    """End the run with its outcome (``runs.experience.finish`` also distils it)."""
    validate.namespace(namespace)
    run_id = validate.memory_id(run_id, "runId")
    rows = store.write(
        "run/finish", namespace=namespace, run_id=run_id, now=now_iso(), success=bool(success),
        outcome=bounds.text(outcome, "outcome", content_filter), path_key=path_key,
        route_key=route_key,
    )  # fmt: skip
    if not rows:
        _refused(store, namespace, run_id)
    return to_run(rows[0]["run"])


def _refused(
    store: Store, namespace: str, run_id: str, *, step: int | None = None, call: bool = False
) -> None:
    """Raise why a write to ``run_id`` matched nothing; return only when a ``call`` named no
    step and the run has none yet."""
    heads = store.read("run/head", namespace=namespace, run_id=run_id)
    if not heads:
        raise NotFound("run", run_id, field="runId")
    head = heads[0]
    if head["ended"] is not None:
        raise Conflict(
            f"runId: run {run_id} has ended ({head['status']}); start a new run to record more"
        )
    if step is not None:
        raise NotFound("step", str(step), field="step")
    if call and int(head["steps"]) == 0:
        return
    raise Conflict(f"runId: run {run_id} changed while the call was recorded; send it again")
