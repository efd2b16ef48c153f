"""A finished run becomes experience: memories the cascade finds for a later similar task.

``finish`` ends the run and distils it (``runs.distil``), then stores, through the write path:

- for a run that succeeded, the path that worked as a PROCEDURE (its steps, the failures met
  on the way as warnings, the task's key words as triggers), tagged ``experience``;
- for each route that failed and was not recovered by a retry, a NEGATIVE memory whose
  trigger patterns are the task's key words, tagged ``warning``: recall surfaces it, flagged,
  for any later context that shares them.

Each points at the run (``DERIVED_FROM``). A later run that succeeds the same way (the same
tools in order, on a similar task) states the earlier procedure again, which the write path
reinforces (NOOP); a later run that fails on a recorded path weakens that procedure as unhelpful
feedback does (``recall.feedback``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from hippograph.graph import validate
from hippograph.graph.errors import Conflict, NotFound
from hippograph.graph.model import NewMemory, Source, now_iso
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.models.llm import JsonCompleter
from hippograph.graph.recall import feedback
from hippograph.graph.runs import distil, read, record
from hippograph.graph.runs.distil import Lesson
from hippograph.graph.runs.model import Experience, Run
from hippograph.graph.store.store import Store, vector
from hippograph.graph.write import writepath
from hippograph.graph.write.writepath import WritePolicy

# Cosine of two tasks above which an earlier run's path counts as the same experience: the
# same tools on an unrelated task prove nothing about this one.
SAME_TASK = 0.6


@dataclass(frozen=True, kw_only=True)
class Finished:
    run: Run
    experience: tuple[Experience, ...]
    distiller: str


def finish(
    store: Store,
    embedder: Embedder,
    namespace: str,
    run_id: str,
    *,
    success: bool,
    outcome: str | None = None,
    policy: WritePolicy | None = None,
    llm: JsonCompleter | None = None,
) -> Finished:
    """End the run and store what it taught (``llm``: the configured model, else the rules)."""
    validate.namespace(namespace)
    run_id = validate.memory_id(run_id, "runId")
    policy = policy or WritePolicy()
    current = read.get(store, namespace, run_id, idle_timeout_s=None)
    if current is None:
        raise NotFound("run", run_id, field="runId")
    if current.ended is not None:
        raise Conflict(f"runId: run {run_id} has ended ({current.status}); it is final")
    lesson = distil.offline(replace(current, success=success))
    ended = record.finish(
        store, namespace, run_id, success=success, outcome=outcome, path_key=lesson.path_key,
        route_key=lesson.route_key, content_filter=policy.content_filter,
    )  # fmt: skip
    whole = replace(current, ended=ended.ended, outcome=ended.outcome, success=ended.success,
                    status=ended.status)  # fmt: skip
    if llm is not None:
        lesson = distil.with_llm(llm, whole, lesson)
    made = learn(store, embedder, namespace, whole, lesson, policy)
    linked = tuple(e.memory_id for e in made if e.action != "WEAKEN")
    return Finished(
        run=replace(whole, experience=tuple(dict.fromkeys(linked))),
        experience=tuple(made),
        distiller=lesson.distiller,
    )


def learn(
    store: Store,
    embedder: Embedder,
    namespace: str,
    run: Run,
    lesson: Lesson,
    policy: WritePolicy,
) -> list[Experience]:
    """Store ``lesson`` of ``run`` as memories derived from it; reinforce or weaken the
    procedures of earlier runs that took the same path."""
    task_vector = vector(embedder.embed([run.task])[0])
    made: list[Experience] = []
    items: list[tuple[str, NewMemory]] = []
    if lesson.success and lesson.steps:
        earlier = _same_path(store, namespace, run.id, lesson.path_key, task_vector)
        item = procedure(run, lesson)
        items.append(("experience", replace(item, content=earlier[0]) if earlier else item))
    elif lesson.route_key is not None:
        for memory_id in _same_path(
            store, namespace, run.id, lesson.route_key, task_vector, ids=True
        ):
            feedback.feedback(store, namespace, memory_id, helpful=False)
            made.append(Experience(memory_id=memory_id, kind="experience", action="WEAKEN",
                                   content=""))  # fmt: skip
    warning = negative(run, lesson)
    if warning is not None:
        items.append(("warning", warning))
    if not items:
        return made
    results = writepath.remember(
        store, embedder, namespace, [item for _, item in items], policy=policy, source="run"
    )
    for (kind, _), result in zip(items, results, strict=True):
        made.append(Experience(memory_id=result.memory.id, kind=kind, action=result.action,
                               content=result.memory.content))  # fmt: skip
    store.write("run/derive", namespace=namespace, run_id=run.id, now=now_iso(),
                ids=[e.memory_id for e in made if e.action != "WEAKEN"])  # fmt: skip
    return made


def _same_path(
    store: Store,
    namespace: str,
    run_id: str,
    key: str | None,
    task_vector: Sequence[float],
    *,
    ids: bool = False,
) -> list[str]:
    """Procedures of earlier successful runs whose path is ``key``, on a similar task: their
    contents (or ``ids``), the most similar task first."""
    if key is None:
        return []
    rows = store.read(
        "run/path_experience", namespace=namespace, key=key, run_id=run_id,
        embedding=task_vector, min_similarity=SAME_TASK,
    )  # fmt: skip
    return [r["id"] if ids else r["content"] for r in rows]


def procedure(run: Run, lesson: Lesson) -> NewMemory:
    """The path that worked, as a procedure memory."""
    content = f"{lesson.goal.rstrip('.')}: what worked was to " + "; then ".join(lesson.steps)
    if lesson.applies_when and lesson.distiller == "llm":
        content += f". Applies when: {', '.join(lesson.applies_when)}"
    warnings = tuple(
        f"{f.route} failed: {f.cause}" + (" (a retry worked)" if f.tool in lesson.recovered else "")
        for f in lesson.failures
    )
    return NewMemory(
        content=content.rstrip(".") + ".",
        memory_type="procedure",
        provenance="observed",
        source=Source(session_id=run.session, snippet=f"run {run.id}"),
        tags=("experience",),
        trigger_patterns=distil.trigger_patterns(distil.key_words(run.task)),
        steps=lesson.steps,
        warnings=warnings[: validate.MAX_LIST_ITEMS],
    )


def negative(run: Run, lesson: Lesson) -> NewMemory | None:
    """The routes that failed and were not recovered by a retry, as one negative memory whose
    triggers are the task's key words; None when there are none."""
    failed = [f for f in lesson.failures if f.tool not in lesson.recovered]
    patterns = distil.trigger_patterns(distil.key_words(run.task))
    if not failed or not patterns:
        return None
    routes = "; ".join(f"{f.route} failed ({f.cause})" for f in failed)
    advice = "use the path that worked instead" if lesson.success else "try another route"
    return NewMemory(
        content=f'For "{lesson.goal.rstrip(".")}", avoid this route: {routes}; {advice}.',
        memory_type="negative",
        provenance="observed",
        source=Source(session_id=run.session, snippet=f"run {run.id}"),
        tags=("warning",),
        trigger_patterns=patterns,
        warnings=tuple(f"{f.route}: {f.cause}" for f in failed)[: validate.MAX_LIST_ITEMS],
    )
