"""Decision records and the history of one memory.

Every fact that goes through the write path leaves a ``Decision`` node: the action, the memory
it landed in (``memory_id``), the memory it acted on (``target_id``), why, which decider, when,
and from where (``remember``, ``extract``, ``consolidate``, ``rebuild``). ``history`` gathers
them for one memory, with its earlier texts (UPDATE keeps them on the node), the memories it
superseded and those that superseded it, and the memories it contradicts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hippograph.graph import validate
from hippograph.graph.errors import NotFound
from hippograph.graph.store.store import Store

MAX_DECISIONS = 500


@dataclass(frozen=True, kw_only=True)
class DecisionRecord:
    id: str
    at: str
    source: str
    action: str
    memory_id: str | None
    target_id: str | None
    reason: str
    decider: str
    similarity: float | None
    content: str
    episode_uids: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Version:
    """An earlier text of the memory, replaced by an UPDATE at ``at``."""

    content: str
    at: str
    reason: str
    decision_id: str | None


@dataclass(frozen=True, kw_only=True)
class Related:
    id: str
    content: str
    status: str
    created_at: str | None = None
    resolved: bool | None = None
    resolution: str | None = None


@dataclass(frozen=True, kw_only=True)
class MemoryHistory:
    memory_id: str
    decisions: tuple[DecisionRecord, ...]
    versions: tuple[Version, ...]
    supersedes: tuple[Related, ...]  # older facts this one replaced (the timeline behind it)
    superseded_by: tuple[Related, ...]  # newer facts that replaced this one
    contradicts: tuple[Related, ...]


def to_decision(p: dict[str, Any]) -> DecisionRecord:
    similarity = p.get("similarity")
    return DecisionRecord(
        id=p["id"],
        at=p["at"],
        source=p.get("source") or "",
        action=p["action"],
        memory_id=p.get("memory_id"),
        target_id=p.get("target_id"),
        reason=p.get("reason") or "",
        decider=p.get("decider") or "",
        similarity=None if similarity is None else float(similarity),
        content=p.get("content") or "",
        episode_uids=tuple(p.get("episode_uids") or ()),
    )


def history(store: Store, namespace: str, memory_id: str) -> MemoryHistory:
    """Everything known about how ``memory_id`` came to be what it is."""
    validate.namespace(namespace)
    memory_id = validate.memory_id(memory_id, "memoryId")
    rows = store.read("decision/timeline", namespace=namespace, id=memory_id)
    if not rows:
        raise NotFound("memory", memory_id, field="memoryId")
    row = rows[0]
    decisions = store.read(
        "decision/for_memory", namespace=namespace, id=memory_id, limit=MAX_DECISIONS
    )
    contradicts = store.read("decision/contradictions", namespace=namespace, id=memory_id)
    versions = []
    for raw in row["history"] or []:
        entry = json.loads(raw)
        versions.append(
            Version(
                content=entry.get("content") or "",
                at=entry.get("at") or "",
                reason=entry.get("reason") or "",
                decision_id=entry.get("decision_id"),
            )
        )
    return MemoryHistory(
        memory_id=memory_id,
        decisions=tuple(to_decision(r["decision"]) for r in decisions),
        versions=tuple(versions),
        supersedes=tuple(_related(r) for r in row["older"] or []),
        superseded_by=tuple(_related(r) for r in row["newer"] or []),
        contradicts=tuple(
            Related(
                id=r["id"],
                content=r["content"],
                status=r["status"],
                resolved=r.get("resolved"),
                resolution=r.get("resolution"),
            )
            for r in contradicts
        ),
    )


def _related(r: dict[str, Any]) -> Related:
    return Related(
        id=r["id"], content=r["content"], status=r["status"], created_at=r.get("created_at")
    )
