"""Each memory action as an ``Operation``: its document, its variables and how to read its
``data``. The sync and async clients send the same operations; only the I/O differs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from hippograph.client import documents, records
from hippograph.client.records import Json, Turn
from hippograph.graph import model

T = TypeVar("T")


@dataclass(frozen=True)
class Operation(Generic[T]):
    document: str
    variables: Json
    read: Callable[[Json], T]


def _vars(**values: Any) -> Json:
    # An omitted variable takes the document's default; an explicit null would not.
    return {k: v for k, v in values.items() if v is not None}


def remember(ns: str, items: Sequence[model.NewMemory]) -> Operation[list[model.RememberResult]]:
    return Operation(
        documents.REMEMBER,
        _vars(namespace=ns, memories=[records.memory_input(m) for m in items]),
        lambda d: [records.remember_result(r) for r in d["remembered"]],
    )


def recall(
    ns: str,
    context: str,
    *,
    k: int | None,
    project: str | None,
    session_id: str | None,
    memory_types: Sequence[str] | None,
    include_archived: bool,
    include_history: bool,
    explain: bool,
    verify: bool = False,
    rejected: str = "drop",
    include_gap: bool = False,
    as_of: str | None = None,
    valid_at: str | None = None,
) -> Operation[records.RecallResult]:
    variables = _vars(
        namespace=ns,
        context=context,
        k=k,
        project=project,
        sessionId=session_id,
        memoryTypes=[t.upper() for t in memory_types] if memory_types is not None else None,
        includeArchived=include_archived,
        includeHistory=include_history,
        explain=explain,
        verify=verify,
        rejected=rejected.upper(),
        includeGap=include_gap,
        asOf=as_of,
        validAt=valid_at,
    )
    return Operation(documents.RECALL, variables, lambda d: records.recall_result(d["recall"]))


def search(
    ns: str,
    query: str,
    k: int | None,
    as_of: str | None = None,
    project: str | None = None,
    session_id: str | None = None,
    valid_at: str | None = None,
) -> Operation[list[model.ScoredMemory]]:
    return Operation(
        documents.SEARCH,
        _vars(
            namespace=ns,
            query=query,
            k=k,
            asOf=as_of,
            project=project,
            sessionId=session_id,
            validAt=valid_at,
        ),
        lambda d: [records.scored(r) for r in d["results"]],
    )


def memories(
    ns: str,
    flt: model.MemoryFilter | None,
    first: int | None,
    after: str | None,
    as_of: str | None = None,
    project: str | None = None,
    session_id: str | None = None,
) -> Operation[model.Page]:
    variables = _vars(
        namespace=ns,
        filter=records.memory_filter(flt) if flt is not None else None,
        first=first,
        after=after,
        asOf=as_of,
        project=project,
        sessionId=session_id,
    )
    return Operation(documents.LIST, variables, lambda d: records.page(d["memories"]))


def memory(
    ns: str, memory_id: str, project: str | None = None, session_id: str | None = None
) -> Operation[model.Memory]:
    variables = _vars(namespace=ns, id=memory_id, project=project, sessionId=session_id)
    return Operation(documents.MEMORY, variables, lambda d: records.memory(d["memory"]))


def forget(ns: str, memory_id: str, hard: bool, reason: str | None) -> Operation[str]:
    return Operation(
        documents.FORGET,
        _vars(namespace=ns, id=memory_id, hard=hard, reason=reason),
        lambda d: str(d["forgotten"]),
    )


def link(
    ns: str, from_id: str, to_id: str, relation: str | None, weight: float | None
) -> Operation[records.Link]:
    variables = _vars(namespace=ns, fromId=from_id, toId=to_id, relation=relation, weight=weight)
    return Operation(documents.LINK, variables, lambda d: records.link(d["link"]))


def tag(ns: str, memory_id: str, tags: Sequence[str], *, remove: bool) -> Operation[model.Memory]:
    return Operation(
        documents.UNTAG if remove else documents.TAG,
        _vars(namespace=ns, id=memory_id, tags=list(tags)),
        lambda d: records.memory(d["memory"]),
    )


def supersede(ns: str, old_id: str, new_id: str, reason: str | None) -> Operation[model.Memory]:
    return Operation(
        documents.SUPERSEDE,
        _vars(namespace=ns, oldId=old_id, newId=new_id, reason=reason),
        lambda d: records.memory(d["superseded"]),
    )


def history(ns: str, memory_id: str) -> Operation[records.MemoryHistory]:
    return Operation(
        documents.HISTORY,
        _vars(namespace=ns, memoryId=memory_id),
        lambda d: records.memory_history(d["history"]),
    )


def ingest(ns: str, turns: Sequence[Turn], flush: bool) -> Operation[records.IngestResult]:
    return Operation(
        documents.INGEST,
        _vars(namespace=ns, turns=[records.turn_input(t) for t in turns], flush=flush),
        lambda d: records.ingest_result(d["ingest"]),
    )


def feedback(ns: str, memory_id: str, helpful: bool) -> Operation[records.Rating]:
    return Operation(
        documents.FEEDBACK,
        _vars(namespace=ns, memoryId=memory_id, helpful=helpful),
        lambda d: records.rating(d["feedback"]),
    )


def health() -> Operation[records.Health]:
    return Operation(documents.HEALTH, {}, lambda d: records.health(d["health"]))
