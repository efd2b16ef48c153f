"""The GraphQL schema. Strawberry types wrap domain dataclasses here and nowhere else."""

from __future__ import annotations

from enum import Enum
from typing import cast

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.extensions import ParserCache, ValidationCache
from strawberry.tools import merge_types
from strawberry.types import Info

from hippograph.api.errors import HippographErrors, HippographSchema
from hippograph.graph import memories, model
from hippograph.graph.recall import retrieval
from hippograph.graph.runtime import Runtime

JSONScalar = strawberry.scalars.JSON


@strawberry.enum
class MemoryType(Enum):
    FACT = "fact"
    PREFERENCE = "preference"
    PROCEDURE = "procedure"
    CORRECTION = "correction"
    NEGATIVE = "negative"


@strawberry.enum
class Scope(Enum):
    GLOBAL = "global"
    PROJECT = "project"
    SESSION = "session"


@strawberry.enum
class Provenance(Enum):
    USER_STATED = "user_stated"
    USER_CORRECTED = "user_corrected"
    OBSERVED = "observed"
    INFERRED = "inferred"
    EXTRACTED = "extracted"


@strawberry.enum
class Status(Enum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    ARCHIVED = "archived"


@strawberry.enum
class Relation(Enum):
    RELATES_TO = "RELATES_TO"
    CONTRADICTS = "CONTRADICTS"
    DERIVED_FROM = "DERIVED_FROM"


@strawberry.type
class Source:
    session_id: str | None
    messages: str | None
    file_paths: list[str]
    snippet: str | None


@strawberry.type
class Reinforcement:
    at: str
    session_id: str | None
    message: str | None


@strawberry.type
class Memory:
    id: strawberry.ID
    namespace: str
    content: str
    content_hash: str
    memory_type: MemoryType
    scope: Scope
    project: str | None
    session_id: str | None
    provenance: Provenance
    source: Source
    created_at: str
    updated_at: str
    last_accessed: str | None
    access_count: int
    strength: int
    reinforcements: list[Reinforcement]
    confidence: float
    trust_score: float
    status: Status
    superseded_by: str | None
    trigger_patterns: list[str]
    steps: list[str]
    prerequisites: list[str]
    warnings: list[str]
    tags: list[str]
    importance: float | None

    @classmethod
    def of(cls, m: model.Memory) -> Memory:
        return cls(
            id=strawberry.ID(m.id),
            namespace=m.namespace,
            content=m.content,
            content_hash=m.content_hash,
            memory_type=MemoryType(m.memory_type),
            scope=Scope(m.scope),
            project=m.project,
            session_id=m.session_id,
            provenance=Provenance(m.provenance),
            source=Source(
                session_id=m.source.session_id,
                messages=m.source.messages,
                file_paths=list(m.source.file_paths),
                snippet=m.source.snippet,
            ),
            created_at=m.created_at,
            updated_at=m.updated_at,
            last_accessed=m.last_accessed,
            access_count=m.access_count,
            strength=m.strength,
            reinforcements=[
                Reinforcement(at=r.at, session_id=r.session_id, message=r.message)
                for r in m.reinforcements
            ],
            confidence=m.confidence,
            trust_score=m.trust_score,
            status=Status(m.status),
            superseded_by=m.superseded_by,
            trigger_patterns=list(m.trigger_patterns),
            steps=list(m.steps),
            prerequisites=list(m.prerequisites),
            warnings=list(m.warnings),
            tags=list(m.tags),
            importance=m.importance,
        )


@strawberry.type
class RememberPayload:
    memory: Memory
    created: bool
    action: str = strawberry.field(
        description="The decision: ADD, UPDATE, SUPERSEDE, CONTRADICT or NOOP (reinforced)."
    )
    target_id: strawberry.ID | None = strawberry.field(
        description="The existing memory the decision was about (none for ADD)."
    )
    reason: str = strawberry.field(description="Why the decider chose the action.")


@strawberry.type
class ScoredMemory:
    memory: Memory
    score: float


@strawberry.type
class MemoryPage:
    items: list[Memory]
    next_cursor: str | None


@strawberry.type
class Tag:
    name: str
    count: int
    description: str | None


@strawberry.type
class LinkPayload:
    weight: float
    confidence: float


@strawberry.type
class Health:
    backend: str
    graph: str
    embedder_loaded: bool
    embedding_model: str
    embedding_backend: str | None = strawberry.field(
        description="The runtime that embeds: onnx or torch (null until the model is loaded)."
    )


@strawberry.type
class PathStep:
    from_id: str
    to_id: str
    type: str
    via: str
    weight: float


@strawberry.type
class Explanation:
    seed: str
    seed_kinds: list[str]
    path: list[PathStep]
    cosine: float
    fulltext: float
    relevance: float
    activation: float
    speaker: float
    time: float
    recency: float
    confidence: float
    importance: float
    score: float

    @classmethod
    def of(cls, e: retrieval.Explanation) -> Explanation:
        return cls(
            seed=e.seed,
            seed_kinds=list(e.seed_kinds),
            path=[
                PathStep(from_id=s.from_id, to_id=s.to_id, type=s.type, via=s.via, weight=s.weight)
                for s in e.path
            ],
            cosine=e.cosine,
            fulltext=e.fulltext,
            relevance=e.relevance,
            activation=e.activation,
            speaker=e.speaker,
            time=e.time,
            recency=e.recency,
            confidence=e.confidence,
            importance=e.importance,
            score=e.score,
        )


@strawberry.type
class HistoryEntry:
    id: str
    content: str
    created_at: str
    superseded_at: str | None
    reason: str | None


@strawberry.type
class RecallItem:
    memory: Memory
    score: float
    flagged: bool = strawberry.field(description="A negative rule whose trigger matched.")
    history: list[HistoryEntry]
    explanation: Explanation | None


@strawberry.type
class RecallResult:
    items: list[RecallItem]
    gap: bool = strawberry.field(description="Nothing relevant was found for this context.")
    best_relevance: float
    topic_reset: bool
    embed_ms: float
    total_ms: float

    @classmethod
    def of(cls, r: retrieval.RecallResult) -> RecallResult:
        return cls(
            items=[
                RecallItem(
                    memory=Memory.of(i.memory),
                    score=i.score,
                    flagged=i.flagged,
                    history=[
                        HistoryEntry(
                            id=h.id,
                            content=h.content,
                            created_at=h.created_at,
                            superseded_at=h.superseded_at,
                            reason=h.reason,
                        )
                        for h in i.history
                    ],
                    explanation=Explanation.of(i.explanation) if i.explanation else None,
                )
                for i in r.items
            ],
            gap=r.gap,
            best_relevance=r.best_relevance,
            topic_reset=r.topic_reset,
            embed_ms=r.embed_ms,
            total_ms=r.total_ms,
        )


@strawberry.input
class SourceInput:
    session_id: str | None = None
    messages: str | None = None
    file_paths: list[str] = strawberry.field(default_factory=list)
    snippet: str | None = None


@strawberry.input
class MemoryInput:
    content: str
    memory_type: MemoryType = MemoryType.FACT
    scope: Scope = Scope.GLOBAL
    project: str | None = None
    session_id: str | None = None
    provenance: Provenance = Provenance.USER_STATED
    source: SourceInput | None = None
    confidence: float | None = None
    trust_score: float = 1.0
    tags: list[str] = strawberry.field(default_factory=list)
    trigger_patterns: list[str] = strawberry.field(default_factory=list)
    steps: list[str] = strawberry.field(default_factory=list)
    prerequisites: list[str] = strawberry.field(default_factory=list)
    warnings: list[str] = strawberry.field(default_factory=list)
    occurred_at: str | None = None

    def to_domain(self) -> model.NewMemory:
        src = self.source or SourceInput()
        return model.NewMemory(
            content=self.content,
            memory_type=self.memory_type.value,
            scope=self.scope.value,
            project=self.project,
            session_id=self.session_id,
            provenance=self.provenance.value,
            source=model.Source(
                session_id=src.session_id,
                messages=src.messages,
                file_paths=tuple(src.file_paths),
                snippet=src.snippet,
            ),
            confidence=self.confidence,
            trust_score=self.trust_score,
            tags=tuple(self.tags),
            trigger_patterns=tuple(self.trigger_patterns),
            steps=tuple(self.steps),
            prerequisites=tuple(self.prerequisites),
            warnings=tuple(self.warnings),
            occurred_at=self.occurred_at,
        )


@strawberry.input
class MemoryFilter:
    memory_type: MemoryType | None = None
    scope: Scope | None = None
    tag: str | None = None
    status: Status | None = Status.ACTIVE
    text: str | None = None
    project: str | None = None
    session_id: str | None = None

    def to_domain(self) -> model.MemoryFilter:
        return model.MemoryFilter(
            memory_type=self.memory_type.value if self.memory_type else None,
            scope=self.scope.value if self.scope else None,
            tag=self.tag,
            status=self.status.value if self.status else None,
            text=self.text,
            project=self.project,
            session_id=self.session_id,
        )


def runtime(info: Info) -> Runtime:
    return cast(Runtime, info.context["runtime"])


@strawberry.type
class MemoryQuery:
    @strawberry.field(description="Which graph backend serves and whether the embedder is loaded.")
    def health(self, info: Info) -> Health:
        rt = runtime(info)
        return Health(
            backend=rt.store.dialect.name,
            graph=rt.store.location,
            embedder_loaded=rt.embedder.loaded,
            embedding_model=rt.embedder.model_path,
            embedding_backend=rt.embedder.backend,
        )

    @strawberry.field(description="One memory by id.")
    async def memory(self, info: Info, namespace: str, id: strawberry.ID) -> Memory:
        rt = runtime(info)
        found = await run_in_threadpool(memories.get, rt.store, namespace, str(id))
        return Memory.of(found)

    @strawberry.field(description="Memories matching a filter, newest first, cursor-paginated.")
    async def memories(
        self,
        info: Info,
        namespace: str,
        filter: MemoryFilter | None = None,
        first: int = 20,
        after: str | None = None,
    ) -> MemoryPage:
        rt = runtime(info)
        flt = (filter or MemoryFilter()).to_domain()
        page = await run_in_threadpool(
            memories.list_memories, rt.store, namespace, flt, first=first, after=after
        )
        return MemoryPage(items=[Memory.of(m) for m in page.items], next_cursor=page.next_cursor)

    @strawberry.field(description="Plain vector top-k over active memories.")
    async def search(
        self, info: Info, namespace: str, query: str, k: int = 10
    ) -> list[ScoredMemory]:
        rt = runtime(info)
        found = await run_in_threadpool(
            memories.search, rt.store, rt.embedder, namespace, query, k, limits=rt.limits
        )
        return [ScoredMemory(memory=Memory.of(s.memory), score=s.score) for s in found]

    @strawberry.field(
        description="What is relevant now: hybrid seeds, graph expansion, one ranking. "
        "Negative rules whose triggers match are always included (flagged)."
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
    ) -> RecallResult:
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
        )
        result = await run_in_threadpool(
            retrieval.recall,
            rt.store,
            rt.embedder,
            namespace,
            request,
            config=rt.cascade,
            limits=rt.limits,
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
    async def remember(self, info: Info, namespace: str, memory: MemoryInput) -> RememberPayload:
        results = await _remember(info, namespace, [memory])
        return results[0]

    @strawberry.mutation(description="Remember a batch atomically: all items are stored or none.")
    async def remember_batch(
        self, info: Info, namespace: str, memories: list[MemoryInput]
    ) -> list[RememberPayload]:
        return await _remember(info, namespace, memories)

    @strawberry.mutation(description="Archive a memory (hard: delete it); a tombstone is kept.")
    async def forget(
        self, info: Info, namespace: str, id: strawberry.ID, hard: bool = False, reason: str = ""
    ) -> strawberry.ID:
        rt = runtime(info)
        done = await run_in_threadpool(
            memories.forget, rt.store, namespace, str(id), reason=reason or "forgotten", hard=hard
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
    ) -> LinkPayload:
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

    @strawberry.mutation(description="Mark old as superseded by new (a SUPERSEDES edge).")
    async def supersede(
        self,
        info: Info,
        namespace: str,
        old_id: strawberry.ID,
        new_id: strawberry.ID,
        reason: str = "",
    ) -> Memory:
        rt = runtime(info)
        await run_in_threadpool(
            memories.supersede, rt.store, namespace, str(old_id), str(new_id), reason=reason
        )
        return Memory.of(await run_in_threadpool(memories.get, rt.store, namespace, str(old_id)))

    @strawberry.mutation(description="Add tags to a memory.")
    async def tag(self, info: Info, namespace: str, id: strawberry.ID, tags: list[str]) -> Memory:
        rt = runtime(info)
        return Memory.of(await run_in_threadpool(memories.tag, rt.store, namespace, str(id), tags))

    @strawberry.mutation(description="Remove tags from a memory.")
    async def untag(self, info: Info, namespace: str, id: strawberry.ID, tags: list[str]) -> Memory:
        rt = runtime(info)
        found = await run_in_threadpool(memories.untag, rt.store, namespace, str(id), tags)
        return Memory.of(found)


async def _remember(info: Info, namespace: str, items: list[MemoryInput]) -> list[RememberPayload]:
    rt = runtime(info)
    results = await run_in_threadpool(
        memories.remember,
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


# The write path's and the maintenance jobs' fields live in their own modules.
from hippograph.api.ingest_schema import IngestMutation, IngestQuery  # noqa: E402
from hippograph.api.jobs_schema import JobsMutation, JobsQuery  # noqa: E402

RootQuery = merge_types("Query", (MemoryQuery, IngestQuery, JobsQuery))
RootMutation = merge_types("Mutation", (MemoryMutation, IngestMutation, JobsMutation))
# Clients send the same few documents with different variables: each is parsed and validated
# once (about 1-2 ms a request for a recall with its selection, otherwise).
schema = HippographSchema(
    query=RootQuery,
    mutation=RootMutation,
    extensions=[
        HippographErrors,
        lambda: ParserCache(maxsize=256),  # factories; the caches are shared module-wide
        lambda: ValidationCache(maxsize=256),
    ],
)
