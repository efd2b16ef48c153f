"""The client's records of entities (``documents_more.ENTITY`` and its kin), read from JSON."""

from __future__ import annotations

from dataclasses import dataclass

from hippograph.client.records import Json, memory
from hippograph.graph import model


@dataclass(frozen=True, kw_only=True)
class Entity:
    uid: str
    name: str
    canonical: str
    kind: str
    aliases: tuple[str, ...]
    description: str | None
    first_seen: str | None
    last_seen: str | None
    mentions: int
    merged_into: str | None
    importance: float | None = None  # 0..1 within the namespace, once the pagerank job ran


@dataclass(frozen=True, kw_only=True)
class Relationship:
    type: str
    outgoing: bool  # it reads "entity TYPE other"
    other_uid: str
    other_name: str
    other_kind: str
    since: str | None
    until: str | None  # None while it holds
    source: str | None  # the memory it was read from, or "caller"
    recorded_at: str | None


@dataclass(frozen=True, kw_only=True)
class MergedEntity:
    uid: str
    name: str
    at: str | None
    reason: str | None


@dataclass(frozen=True, kw_only=True)
class TimelineEntry:
    at: str
    role: str
    memory: model.Memory


@dataclass(frozen=True, kw_only=True)
class EntityView:
    entity: Entity
    merged: tuple[MergedEntity, ...]
    relationships: tuple[Relationship, ...]
    memories: tuple[model.Memory, ...]
    timeline: tuple[TimelineEntry, ...]


def entity(d: Json) -> Entity:
    return Entity(
        uid=d["uid"], name=d["name"], canonical=d["canonical"], kind=d["kind"],
        aliases=tuple(d["aliases"]), description=d["description"], first_seen=d["firstSeen"],
        last_seen=d["lastSeen"], mentions=d["mentions"], merged_into=d["mergedInto"],
        importance=d.get("importance"),
    )  # fmt: skip


def relationship(d: Json) -> Relationship:
    return Relationship(
        type=d["type"], outgoing=d["outgoing"], other_uid=d["otherUid"],
        other_name=d["otherName"], other_kind=d["otherKind"], since=d["since"],
        until=d["until"], source=d["source"], recorded_at=d["recordedAt"],
    )  # fmt: skip


def view(d: Json) -> EntityView:
    return EntityView(
        entity=entity(d["entity"]),
        merged=tuple(
            MergedEntity(uid=m["uid"], name=m["name"], at=m["at"], reason=m["reason"])
            for m in d["merged"]
        ),  # fmt: skip
        relationships=tuple(relationship(r) for r in d["relationships"]),
        memories=tuple(memory(m) for m in d["memories"]),
        timeline=tuple(
            TimelineEntry(at=t["at"], role=t["role"], memory=memory(t["memory"]))
            for t in d["timeline"]
        ),  # fmt: skip
    )
