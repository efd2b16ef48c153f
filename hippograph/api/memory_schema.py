"""GraphQL fields of the Memory aggregate: health, memory, memories, search, recall, tags
(queries); remember, forget, supersede, link, tag, untag (mutations)."""

from __future__ import annotations

from functools import partial
from typing import Annotated

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.types import Info

from hippograph.api.context import runtime, stored_reason
from hippograph.api.inputs import MemoryFilter, MemoryInput, Project, SessionId
from hippograph.api.limits import charge_k, refuse_get
from hippograph.api.types import (
    Health,
    LinkPayload,
    Memory,
    MemoryPage,
    MemoryType,
    RecallResult,
    RejectedMode,
    Relation,
    RememberPayload,
    ScoredMemory,
    Tag,
)
from hippograph.api.work import heavy
from hippograph.graph import memories
from hippograph.graph.recall import retrieval
from hippograph.graph.write import writepath

AsOf = Annotated[
    str | None,
    strawberry.argument(
        description="ISO time: answer as the store stood then (memories learned by then and "
        "not yet superseded, archived or forgotten; superseded ones current then come back)."
    ),
]
ValidAt = Annotated[
    str | None,
    strawberry.argument(
        description="ISO time (event time): what was true then, as known now: memories whose "
        "fact held then (from their time until their successor's), superseded ones included."
    ),
]


@strawberry.type
class MemoryQuery:
    @strawberry.field(description="Which graph backend serves and whether the embedder is loaded.")
    def health(self, info: Info) -> Health:
        rt = runtime(info)
        return Health(
            backend=rt.store.dialect.name,
            graph=rt.store.location,
            embedder_loaded=rt.embedder.loaded,
            embedding_model=rt.embedder.model_name,
            embedding_backend=rt.embedder.backend,
        )

    @strawberry.field(
        description="One memory by id; scoped as recall is (one of another project or session "
        "is not found)."
    )
    async def memory(
        self,
        info: Info,
        namespace: str,
        id: strawberry.ID,
        project: Project = None,
        session_id: SessionId = None,
    ) -> Memory:
        rt = runtime(info)
        found = await run_in_threadpool(
            partial(memories.get_seen, project=project, session_id=session_id),
            rt.store, namespace, str(id),
        )  # fmt: skip
        return Memory.of(found)

    @strawberry.field(
        description="Memories matching a filter, newest first, cursor-paginated; scoped as "
        "recall is: global memories, those of project and those of sessionId."
    )
    async def memories(
        self,
        info: Info,
        namespace: str,
        filter: MemoryFilter | None = None,
        first: int = 20,
        after: str | None = None,
        as_of: AsOf = None,
        project: Project = None,
        session_id: SessionId = None,
    ) -> MemoryPage:
        rt = runtime(info)
        flt = (filter or MemoryFilter()).to_domain()
        page = await run_in_threadpool(
            partial(memories.list_memories, first=first, after=after, as_of=as_of,
                    project=project, session_id=session_id),
            rt.store, namespace, flt,
        )  # fmt: skip
        return MemoryPage(items=[Memory.of(m) for m in page.items], next_cursor=page.next_cursor)

    @strawberry.field(
        description="Plain vector top-k over active memories, scoped as recall is: global "
        "memories, those of project and those of sessionId."
    )
    async def search(
        self,
        info: Info,
        namespace: str,
        query: str,
        k: int = 10,
        as_of: AsOf = None,
        project: Project = None,
        session_id: SessionId = None,
        valid_at: ValidAt = None,
    ) -> list[ScoredMemory]:
        charge_k(info, k)
        rt = runtime(info)
        found = await heavy(
            info,
            partial(memories.search, limits=rt.limits, as_of=as_of, project=project,
                    session_id=session_id, valid_at=valid_at),
            rt.store, rt.embedder, namespace, query, k,
        )  # fmt: skip
        return [ScoredMemory(memory=Memory.of(s.memory), score=s.score) for s in found]

    @strawberry.field(
        description="What is relevant now: hybrid seeds, graph expansion, one ranking. "
        "Negative rules whose triggers match are always included (flagged). When nothing "
        "relevant is found (gap) no memories are returned unless includeGap. verify: the "
        "configured LLM checks the best candidates; rejected ones are dropped or flagged "
        "(rejected: DROP | FLAG); 'verification' says whether it ran."
    )
    async def recall(
        self,
        info: Info,
        namespace: str,
        context: str,
        k: int = 10,
        project: str | None = None,
        session_id: str | None = None,
        memory_types: list[MemoryType] | None = None,
        include_archived: bool = False,
        include_history: bool = False,
        explain: bool = False,
        verify: bool = False,
        rejected: RejectedMode = RejectedMode.DROP,
        include_gap: bool = False,
        as_of: AsOf = None,
        valid_at: ValidAt = None,
    ) -> RecallResult:
        refuse_get(info, "recall")
        charge_k(info, k)
        rt = runtime(info)
        request = retrieval.RecallRequest(
            context=context,
            k=k,
            project=project,
            session_id=session_id,
            memory_types=tuple(t.value for t in memory_types or ()),
            include_archived=include_archived,
            include_history=include_history,
            explain=explain,
            verify=verify,
            rejected=rejected.value,
            include_gap=include_gap,
            as_of=as_of,
            valid_at=valid_at,
        )
        result = await heavy(
            info,
            retrieval.recall,
            rt.store,
            rt.embedder,
            namespace,
            request,
            config=rt.cascade,
            services=rt.services,
        )
        rt.after_recall(namespace, context, result)
        return RecallResult.of(result)

    @strawberry.field(description="Tags of a namespace, most used first.")
    async def tags(self, info: Info, namespace: str, first: int = 100) -> list[Tag]:
        rt = runtime(info)
        rows = await run_in_threadpool(memories.list_tags, rt.store, namespace, first)
        return [Tag(name=t.name, count=t.count, description=t.description) for t in rows]


@strawberry.type
class MemoryMutation:
    @strawberry.mutation(description="Remember one memory; identical content reinforces instead.")
    async def remember(
        self, info: Info, namespace: str, memory: MemoryInput
    ) -> RememberPayload | None:
        results = await _remember(info, namespace, [memory])
        return results[0]

    @strawberry.mutation(description="Remember a batch atomically: all items are stored or none.")
    async def remember_batch(
        self, info: Info, namespace: str, memories: list[MemoryInput]
    ) -> list[RememberPayload] | None:
        return await _remember(info, namespace, memories)

    @strawberry.mutation(description="Archive a memory (hard: delete it); a tombstone is kept.")
    async def forget(
        self, info: Info, namespace: str, id: strawberry.ID, hard: bool = False, reason: str = ""
    ) -> strawberry.ID | None:
        rt = runtime(info)
        reason = stored_reason(rt, reason)
        done = await run_in_threadpool(
            memories.forget,
            rt.store,
            namespace,
            str(id),
            reason=reason or "forgotten",
            hard=hard,
            embedder=rt.embedder,
        )
        return strawberry.ID(done)

    @strawberry.mutation(description="Link two memories (RELATES_TO, CONTRADICTS, DERIVED_FROM).")
    async def link(
        self,
        info: Info,
        namespace: str,
        from_id: strawberry.ID,
        to_id: strawberry.ID,
        relation: Relation = Relation.RELATES_TO,
        weight: float = 1.0,
    ) -> LinkPayload | None:
        rt = runtime(info)
        w, c = await run_in_threadpool(
            memories.link,
            rt.store,
            namespace,
            str(from_id),
            str(to_id),
            relation.value,
            weight=weight,
        )
        return LinkPayload(weight=w, confidence=c)

    @strawberry.mutation(
        description="Mark old as superseded by new (a SUPERSEDES edge). An old memory already "
        "superseded is replaced at the head of its chain (its current successor); a supersede "
        "that would close a cycle fails with SUPERSEDE_CYCLE and writes nothing."
    )
    async def supersede(
        self,
        info: Info,
        namespace: str,
        old_id: strawberry.ID,
        new_id: strawberry.ID,
        reason: str = "",
    ) -> Memory | None:
        rt = runtime(info)
        reason = stored_reason(rt, reason)
        await run_in_threadpool(
            memories.supersede, rt.store, namespace, str(old_id), str(new_id), reason=reason
        )
        return Memory.of(await run_in_threadpool(memories.get, rt.store, namespace, str(old_id)))

    @strawberry.mutation(description="Add tags to a memory.")
    async def tag(
        self, info: Info, namespace: str, id: strawberry.ID, tags: list[str]
    ) -> Memory | None:
        rt = runtime(info)
        return Memory.of(await run_in_threadpool(memories.tag, rt.store, namespace, str(id), tags))

    @strawberry.mutation(description="Remove tags from a memory.")
    async def untag(
        self, info: Info, namespace: str, id: strawberry.ID, tags: list[str]
    ) -> Memory | None:
        rt = runtime(info)
        found = await run_in_threadpool(memories.untag, rt.store, namespace, str(id), tags)
        return Memory.of(found)


async def _remember(info: Info, namespace: str, items: list[MemoryInput]) -> list[RememberPayload]:
    rt = runtime(info)
    results = await heavy(
        info,
        writepath.remember,
        rt.store,
        rt.embedder,
        namespace,
        [m.to_domain() for m in items],
        policy=rt.policy,
    )
    return [
        RememberPayload(
            memory=Memory.of(r.memory),
            created=r.created,
            action=r.action,
            target_id=strawberry.ID(r.target) if r.target else None,
            reason=r.reason,
        )
        for r in results
    ]
