"""GraphQL entities (``graph.entities``, ``graph.about``): ``entity`` (everything about one:
aliases, relationships, its most important current memories, its timeline) and ``entities``
(queries); ``defineEntity``, ``relate``, ``mergeEntities``, ``splitEntity`` (mutations)."""

from __future__ import annotations

from functools import partial
from typing import Annotated

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.types import Info

from hippograph.api.context import runtime, stored_reason
from hippograph.api.inputs import Project, SessionId
from hippograph.api.types import Memory
from hippograph.graph import about, entities
from hippograph.graph.errors import InvalidInput


@strawberry.type
class Entity:
    uid: strawberry.ID
    name: str = strawberry.field(description="As first written.")
    canonical: str = strawberry.field(description="The form names are compared in.")
    kind: str = strawberry.field(
        description="person, organisation, location, event, object, project, tool, animal, "
        "or a caller's."
    )
    aliases: list[str] = strawberry.field(description='Other names: "caroline\'s sister".')
    description: str | None
    first_seen: str | None = strawberry.field(description="The first mention's event time.")
    last_seen: str | None
    mentions: int = strawberry.field(description="Memories that mention it.")
    merged_into: strawberry.ID | None = strawberry.field(
        description="The entity it was merged into (splitEntity undoes it)."
    )
    importance: float | None = strawberry.field(
        description="0..1 within the namespace, from PageRank over the entity graph (the "
        "pagerank job); null until it has run."
    )

    @classmethod
    def of(cls, e: entities.Entity) -> Entity:
        return cls(
            uid=strawberry.ID(e.uid), name=e.name, canonical=e.canonical, kind=e.kind,
            aliases=list(e.aliases), description=e.description, first_seen=e.first_seen,
            last_seen=e.last_seen, mentions=e.mentions,
            merged_into=None if e.merged_into is None else strawberry.ID(e.merged_into),
            importance=e.importance,
        )  # fmt: skip


@strawberry.type
class EntityRelationship:
    type: str = strawberry.field(description="WORKS_AT, LIVES_IN, SISTER_OF, or a caller's.")
    outgoing: bool = strawberry.field(description="True: it reads 'entity TYPE other'.")
    other_uid: strawberry.ID
    other_name: str
    other_kind: str
    since: str | None = strawberry.field(description="When it started to hold.")
    until: str | None = strawberry.field(description="When it stopped; null while it holds.")
    source: str | None = strawberry.field(description="The memory it was read from, or caller.")
    recorded_at: str | None

    @classmethod
    def of(cls, r: entities.Relationship) -> EntityRelationship:
        return cls(
            type=r.type, outgoing=r.outgoing, other_uid=strawberry.ID(r.other_uid),
            other_name=r.other_name, other_kind=r.other_kind, since=r.since, until=r.until,
            source=r.source, recorded_at=r.recorded_at,
        )  # fmt: skip


@strawberry.type
class MergedEntity:
    uid: strawberry.ID
    name: str
    at: str | None
    reason: str | None


@strawberry.type
class TimelineEntry:
    at: str
    role: str = strawberry.field(description="subject, object or other.")
    memory: Memory


@strawberry.type
class EntityView:
    entity: Entity
    merged: list[MergedEntity] = strawberry.field(description="Entities merged into it.")
    relationships: list[EntityRelationship] = strawberry.field(description="Ended ones too.")
    memories: list[Memory] = strawberry.field(
        description="Its most important current memories, best first."
    )
    timeline: list[TimelineEntry] = strawberry.field(
        description="The memories that mention it, superseded ones too, oldest first."
    )


@strawberry.type
class EntityQuery:
    @strawberry.field(
        description="Everything about one entity, named by name, alias or id (one merged into "
        "another answers as that one); scoped as recall is: one only memories of other "
        "projects or sessions mention is not found, and their memories are left out."
    )
    async def entity(
        self,
        info: Info,
        namespace: str,
        name: str | None = None,
        id: strawberry.ID | None = None,
        memories: int = 10,
        timeline: int = 50,
        types: list[str] | None = None,
        project: Project = None,
        session_id: SessionId = None,
    ) -> EntityView:
        entities.type_names(types or ())  # bounded before anything else
        if (name is None) == (id is None):
            raise InvalidInput("name", "give a name or an id, not both")
        rt = runtime(info)
        found = await run_in_threadpool(
            about.about, rt.store, namespace, str(name if name is not None else id),
            memories_limit=memories, timeline_limit=timeline, types=tuple(types or ()),
            project=project, session_id=session_id,
        )  # fmt: skip
        return EntityView(
            entity=Entity.of(found.entity),
            merged=[
                MergedEntity(uid=strawberry.ID(m.uid), name=m.name, at=m.at, reason=m.reason)
                for m in found.merged
            ],  # fmt: skip
            relationships=[EntityRelationship.of(r) for r in found.relationships],
            memories=[Memory.of(m) for m in found.memories],
            timeline=[
                TimelineEntry(at=t.at, role=t.role, memory=Memory.of(t.memory))
                for t in found.timeline
            ],  # fmt: skip
        )

    @strawberry.field(
        description="The namespace's entities not merged into another, the most mentioned "
        "first: of one kind, with query in their name or an alias; scoped as recall is (one "
        "only memories of other projects or sessions mention is left out)."
    )
    async def entities(
        self,
        info: Info,
        namespace: str,
        kind: str | None = None,
        query: str = "",
        first: int = 50,
        project: Project = None,
        session_id: SessionId = None,
    ) -> list[Entity]:
        rt = runtime(info)
        found = await run_in_threadpool(
            partial(entities.search, kind=kind, query=query, limit=first, project=project,
                    session_id=session_id),
            rt.store, namespace,
        )  # fmt: skip
        return [Entity.of(e) for e in found]


@strawberry.type
class EntityMutation:
    @strawberry.mutation(
        description="The entity name names (by name or alias), created when unknown "
        "(of kind, default object); its kind and description set when given."
    )
    async def define_entity(
        self,
        info: Info,
        namespace: str,
        name: str,
        kind: str | None = None,
        description: str | None = None,
    ) -> Entity:
        rt = runtime(info)
        found = await run_in_threadpool(
            entities.define, rt.store, namespace, name, kind=kind, description=description
        )
        return Entity.of(found)

    @strawberry.mutation(
        description="from TYPE to (WORKS_AT, KNOWS, ...; letters, digits and _), each an "
        "entity's id or a name: entities not known by those names are created (of kind). "
        "ended: the open one ends at since. "
        "Returns from's relationships of that type."
    )
    async def relate(
        self,
        info: Info,
        namespace: str,
        from_: Annotated[str, strawberry.argument(name="from")],
        type: str,
        to: str,
        kind: str | None = None,
        since: str | None = None,
        ended: bool = False,
    ) -> list[EntityRelationship] | None:
        rt = runtime(info)
        found = await run_in_threadpool(
            entities.relate, rt.store, namespace, from_, type, to,
            kind=kind, since=since, ended=ended,
        )  # fmt: skip
        return [EntityRelationship.of(r) for r in found]

    @strawberry.mutation(
        description="Record that entity from is the same as into (SAME_AS: nothing moves, "
        "splitEntity undoes it). Returns the entity kept."
    )
    async def merge_entities(
        self,
        info: Info,
        namespace: str,
        from_: Annotated[str, strawberry.argument(name="from")],
        into: str,
        reason: str = "",
    ) -> Entity | None:
        rt = runtime(info)
        reason = stored_reason(rt, reason)  # kept on the SAME_AS edge
        kept = await run_in_threadpool(entities.merge, rt.store, namespace, from_, into, reason)
        return Entity.of((await run_in_threadpool(entities.get, rt.store, namespace, kept))[0])

    @strawberry.mutation(description="Undo the merge of an entity (by id). Returns it.")
    async def split_entity(self, info: Info, namespace: str, id: strawberry.ID) -> Entity | None:
        rt = runtime(info)
        uid = await run_in_threadpool(entities.split, rt.store, namespace, str(id))
        return Entity.of((await run_in_threadpool(entities.get, rt.store, namespace, uid))[0])
