"""Everything about one entity: the entity, the entities merged into it, its relationships (the
ended ones too: when they held), its most important current memories and its timeline (every
memory that mentions it, superseded ones included, oldest first), scoped as recall is
(``validate.visible``): an entity only memories of other scopes mention is not found."""

from __future__ import annotations

from dataclasses import dataclass

from hippograph.graph import entities, memories, validate
from hippograph.graph.errors import InvalidInput, NotFound
from hippograph.graph.model import Memory
from hippograph.graph.store.store import Store

MAX_MEMORIES = 100
MAX_TIMELINE = 500


@dataclass(frozen=True, kw_only=True)
class TimelineEntry:
    """A memory mentioning the entity: when it happened or was said, and in which role."""

    at: str
    role: str  # subject, object or other
    memory: Memory


@dataclass(frozen=True, kw_only=True)
class About:
    entity: entities.Entity
    merged: tuple[entities.MergedEntity, ...]
    relationships: tuple[entities.Relationship, ...]
    memories: tuple[Memory, ...]  # the most important current ones, best first
    timeline: tuple[TimelineEntry, ...]  # oldest first


def about(
    store: Store,
    namespace: str,
    ident: str,
    *,
    memories_limit: int = 10,
    timeline_limit: int = 50,
    types: tuple[str, ...] = (),
    project: str | None = None,
    session_id: str | None = None,
) -> About:
    """The entity ``ident`` names (a uid, a name or an alias; one merged into another shows
    that one) with what is known about it (see the module). ``types``: only relationships of
    those types."""
    validate.namespace(namespace)
    for field, value, limit in (("memories", memories_limit, MAX_MEMORIES),
                                ("timeline", timeline_limit, MAX_TIMELINE)):  # fmt: skip
        if not 0 <= value <= limit:
            raise InvalidInput(field, f"must be within 0..{limit}", limit=limit)
    visible = validate.visible(project, session_id)
    uid = entities.find(store, namespace, ident)
    entity, merged = entities.get(store, namespace, uid)
    if entity.merged_into is not None:
        uid = entity.merged_into
        entity, merged = entities.get(store, namespace, uid)
    seen = store.read("entity/seen", namespace=namespace, uid=uid, scopes=visible)
    if seen and int(seen[0]["mentions"]) and not int(seen[0]["seen"]):
        raise NotFound("entity", ident, field="entity")
    related = entities.relationships(store, namespace, uid, types=types, scopes=visible)
    rows = store.read(
        "entity/memories", namespace=namespace, uid=uid, statuses=["active", "superseded"],
        limit=max(memories_limit * 5, timeline_limit), scopes=visible,
    )  # fmt: skip
    found = {m.id: m for m in memories.get_many(store, namespace, [r["id"] for r in rows])}
    # The rows come newest first: a stable sort keeps the newer of two equally important.
    current = sorted(
        (r for r in rows if r["status"] == "active" and r["id"] in found),
        key=lambda r: (-float(r["importance"]), -float(r["confidence"])),
    )
    timeline = [
        TimelineEntry(at=r["at"], role=r["role"] or "other", memory=found[r["id"]])
        for r in sorted(rows[:timeline_limit], key=lambda r: (r["at"], r["id"]))
        if r["id"] in found
    ]
    return About(
        entity=entity, merged=merged, relationships=tuple(related),
        memories=tuple(found[r["id"]] for r in current[:memories_limit]),
        timeline=tuple(timeline),
    )  # fmt: skip
