"""GraphQL output types and enums. Strawberry types wrap the domain dataclasses here (``of``
builds each from its record) and nowhere else."""

from __future__ import annotations

from enum import Enum

import strawberry

from hippograph.graph import model
from hippograph.graph.recall import retrieval

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


@strawberry.enum
class RejectedMode(Enum):
    DROP = "drop"
    FLAG = "flag"


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


@strawberry.type(description="Where a piece of a long conversation turn sits in it.")
class Chunk:
    index: int = strawberry.field(description="The piece's place among the turn's, from 0.")
    count: int = strawberry.field(description="How many pieces the turn made.")
    start: int = strawberry.field(description="Offset of its first character in the turn.")
    end: int = strawberry.field(description="Offset just past its last character.")

    @classmethod
    def of(cls, c: model.ChunkPosition | None) -> Chunk | None:
        return None if c is None else cls(index=c.index, count=c.count, start=c.start, end=c.end)


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
    valid_from: str = strawberry.field(
        description="Event time the fact began to hold (or was said): its createdAt."
    )
    valid_until: str | None = strawberry.field(
        description="Event time its successor began; null while it is current."
    )
    recorded_at: str = strawberry.field(
        description="When the service learned it (service clock); decay counts from here."
    )
    chunk: Chunk | None = strawberry.field(
        description="A piece of a turn too long for one memory (ingest): its place in the "
        "turn's text, which its episode (DERIVED_FROM) keeps whole; null otherwise."
    )

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
            valid_from=m.created_at,
            valid_until=m.valid_until,
            recorded_at=m.learned_at,
            chunk=Chunk.of(m.chunk),
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
    length: float = strawberry.field(
        description="The length factor on the activation (1 for a memory of usual length)."
    )
    restated: float = strawberry.field(
        description="The factor on the activation of a memory said by a restating speaker."
    )
    asks: float = strawberry.field(
        description="What the score lost because the memory asks a question (0 otherwise)."
    )
    addressee: float = strawberry.field(
        description="What the score gained as said by the one the context calls 'you'."
    )

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
            length=e.length,
            restated=e.restated,
            asks=e.asks,
            addressee=e.addressee,
        )


@strawberry.type
class HistoryEntry:
    id: str
    content: str
    created_at: str
    superseded_at: str | None = strawberry.field(
        description="When the service learned it was replaced (service clock)."
    )
    valid_until: str | None = strawberry.field(
        description="When it stopped being true: the event time its successor began."
    )
    reason: str | None


@strawberry.type
class RecallItem:
    memory: Memory
    score: float = strawberry.field(
        description=(
            "Relevance in this answer, best first: what was put ahead of better-scored "
            "memories (a triggered rule, what applies, a newer value above the one it updates, "
            "the best answer's second hop) takes the best score it precedes."
        )
    )
    flagged: bool = strawberry.field(description="A negative rule whose trigger matched.")
    applies: bool = strawberry.field(
        description=(
            "A standing instruction or constraint whose condition the context matches: "
            "returned whatever the gap verdict."
        )
    )
    rejected: bool = strawberry.field(
        description="The configured LLM found it irrelevant (returned with rejected: FLAG)."
    )
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
    verification: str = strawberry.field(
        description="'not requested', 'verified', or 'unverified: <why>' (the ranking as is)."
    )

    @classmethod
    def of(cls, r: retrieval.RecallResult) -> RecallResult:
        return cls(
            items=[
                RecallItem(
                    memory=Memory.of(i.memory),
                    score=i.score,
                    flagged=i.flagged,
                    applies=i.applies,
                    rejected=i.rejected,
                    history=[
                        HistoryEntry(
                            id=h.id,
                            content=h.content,
                            created_at=h.created_at,
                            superseded_at=h.superseded_at,
                            valid_until=h.valid_until,
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
            verification=r.verification,
        )
