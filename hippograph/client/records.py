"""The client's typed records, and reading them from GraphQL JSON.

Memories come back as the domain's own frozen records (``hippograph.graph.model``: ``Memory``,
``RememberResult``, ``ScoredMemory``, ``Page``), so code moving between the library and the
service sees one type. What the API returns beyond those (a recall with its explanations, a
history, an ingest report...) is shaped by the API, not by a domain record of ``graph/`` (those
live in its internal modules, next to the engine code), so it gets a record here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hippograph.graph import model

Json = dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class Turn:
    """One message to ingest; (session_id, turn_index) places it (turn_index None: after the
    session's last turn), message_id (the client's own id) makes sending it again harmless."""

    session_id: str
    text: str = ""  # kept as sent; may be empty beside tool calls or tool results
    turn_index: int | None = None
    speaker: str | None = None
    role: str | None = None  # user, assistant, system or tool
    timestamp: str | None = None  # ISO-8601, when said
    file_paths: tuple[str, ...] = ()
    tool_calls: tuple[model.ToolCall, ...] = ()
    tool_results: tuple[model.ToolResult, ...] = ()
    metadata: Json | None = None  # a JSON object of at most 16 KiB
    message_id: str | None = None


@dataclass(frozen=True, kw_only=True)
class TurnRef:
    """Where a message sent is: its stable id, session, turn index, and the outcome (stored,
    duplicate, or erased: not stored again)."""

    id: str
    session_id: str
    turn_index: int | None
    outcome: str


@dataclass(frozen=True, kw_only=True)
class PathStep:
    from_id: str
    to_id: str
    type: str
    via: str
    weight: float


@dataclass(frozen=True, kw_only=True)
class Explanation:
    """Why a memory was recalled: its seed, the path that reached it, the score's parts."""

    seed: str
    seed_kinds: tuple[str, ...]
    path: tuple[PathStep, ...]
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
    length: float = 1.0  # the length factor on the activation
    restated: float = 1.0  # the factor on the activation of a restating speaker's memory
    asks: float = 0.0  # what the score lost because the memory asks a question
    addressee: float = 0.0  # what the score gained as said by the one the context calls "you"


@dataclass(frozen=True, kw_only=True)
class HistoryEntry:
    id: str
    content: str
    created_at: str
    superseded_at: str | None  # when the service learned it was replaced
    valid_until: str | None  # when it stopped being true (its successor's event time)
    reason: str | None


@dataclass(frozen=True, kw_only=True)
class RecallItem:
    memory: model.Memory
    score: float
    flagged: bool  # a negative rule whose trigger matched
    applies: bool  # a standing instruction or constraint whose condition matched
    rejected: bool = False  # the configured LLM judged it not relevant (rejected="flag")
    history: tuple[HistoryEntry, ...] = ()
    explanation: Explanation | None = None


@dataclass(frozen=True, kw_only=True)
class RecallResult:
    items: tuple[RecallItem, ...]
    gap: bool  # nothing relevant was found
    best_relevance: float
    topic_reset: bool
    embed_ms: float
    total_ms: float
    verification: str = "not requested"  # or verified, or unverified and why


@dataclass(frozen=True, kw_only=True)
class Decision:
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


@dataclass(frozen=True, kw_only=True)
class MemoryVersion:
    content: str
    at: str
    reason: str
    decision_id: str | None


@dataclass(frozen=True, kw_only=True)
class RelatedMemory:
    id: str
    content: str
    status: str
    created_at: str | None
    resolved: bool | None
    resolution: str | None


@dataclass(frozen=True, kw_only=True)
class MemoryHistory:
    memory_id: str
    decisions: tuple[Decision, ...]
    versions: tuple[MemoryVersion, ...]  # earlier texts, oldest first
    supersedes: tuple[RelatedMemory, ...]
    superseded_by: tuple[RelatedMemory, ...]
    contradicts: tuple[RelatedMemory, ...]


@dataclass(frozen=True, kw_only=True)
class IngestResult:
    stored: int
    duplicates: int
    extracted_turns: int
    pending_turns: int
    actions: dict[str, int] = field(default_factory=dict)  # decision -> count
    turns: tuple[TurnRef, ...] = ()  # each message sent, in order
    erased: int = 0  # messages not stored again: they were erased


@dataclass(frozen=True, kw_only=True)
class Link:
    weight: float
    confidence: float


@dataclass(frozen=True, kw_only=True)
class Rating:
    memory_id: str
    confidence: float
    helpful_count: int
    unhelpful_count: int


@dataclass(frozen=True, kw_only=True)
class Health:
    backend: str
    graph: str
    embedder_loaded: bool
    embedding_model: str
    embedding_backend: str | None


# --- reading GraphQL JSON ------------------------------------------------------------------


def memory(d: Json) -> model.Memory:
    """A ``Memory`` from the API's JSON (enum names back to the domain's lower-case values)."""
    src = d["source"]
    return model.Memory(
        id=d["id"],
        namespace=d["namespace"],
        content=d["content"],
        content_hash=d["contentHash"],
        memory_type=d["memoryType"].lower(),
        scope=d["scope"].lower(),
        project=d["project"],
        session_id=d["sessionId"],
        provenance=d["provenance"].lower(),
        source=model.Source(
            session_id=src["sessionId"],
            messages=src["messages"],
            file_paths=tuple(src["filePaths"]),
            snippet=src["snippet"],
        ),
        created_at=d["createdAt"],
        updated_at=d["updatedAt"],
        last_accessed=d["lastAccessed"],
        access_count=d["accessCount"],
        strength=d["strength"],
        reinforcements=tuple(
            model.Reinforcement(at=r["at"], session_id=r["sessionId"], message=r["message"])
            for r in d["reinforcements"]
        ),
        confidence=d["confidence"],
        trust_score=d["trustScore"],
        status=d["status"].lower(),
        superseded_by=d["supersededBy"],
        trigger_patterns=tuple(d["triggerPatterns"]),
        steps=tuple(d["steps"]),
        prerequisites=tuple(d["prerequisites"]),
        warnings=tuple(d["warnings"]),
        tags=tuple(d["tags"]),
        importance=d["importance"],
        recorded_at=d["recordedAt"],
        valid_until=d["validUntil"],
        chunk=_chunk(d["chunk"]),
    )


def _chunk(d: Json | None) -> model.ChunkPosition | None:
    if d is None:
        return None
    return model.ChunkPosition(index=d["index"], count=d["count"], start=d["start"], end=d["end"])


def remember_result(d: Json) -> model.RememberResult:
    return model.RememberResult(
        memory=memory(d["memory"]),
        created=d["created"],
        action=d["action"],
        target=d["targetId"],
        reason=d["reason"],
    )


def scored(d: Json) -> model.ScoredMemory:
    return model.ScoredMemory(memory=memory(d["memory"]), score=d["score"])


def page(d: Json) -> model.Page:
    return model.Page(items=tuple(memory(m) for m in d["items"]), next_cursor=d["nextCursor"])


def explanation(d: Json) -> Explanation:
    return Explanation(
        seed=d["seed"],
        seed_kinds=tuple(d["seedKinds"]),
        path=tuple(
            PathStep(from_id=s["fromId"], to_id=s["toId"], type=s["type"], via=s["via"],
                     weight=s["weight"])
            for s in d["path"]
        ),
        cosine=d["cosine"], fulltext=d["fulltext"], relevance=d["relevance"],
        activation=d["activation"], speaker=d["speaker"], time=d["time"],
        recency=d["recency"], confidence=d["confidence"], importance=d["importance"],
        score=d["score"], length=d["length"], restated=d["restated"], asks=d["asks"],
        addressee=d["addressee"],
    )  # fmt: skip


def recall_result(d: Json) -> RecallResult:
    return RecallResult(
        items=tuple(
            RecallItem(
                memory=memory(i["memory"]),
                score=i["score"],
                flagged=i["flagged"],
                applies=i["applies"],
                rejected=i["rejected"],
                history=tuple(
                    HistoryEntry(
                        id=h["id"],
                        content=h["content"],
                        created_at=h["createdAt"],
                        superseded_at=h["supersededAt"],
                        valid_until=h["validUntil"],
                        reason=h["reason"],
                    )
                    for h in i["history"]
                ),  # fmt: skip
                explanation=explanation(i["explanation"]) if i["explanation"] else None,
            )
            for i in d["items"]
        ),
        gap=d["gap"],
        best_relevance=d["bestRelevance"],
        topic_reset=d["topicReset"],
        embed_ms=d["embedMs"],
        total_ms=d["totalMs"],
        verification=d["verification"],
    )


def _related(d: Json) -> RelatedMemory:
    return RelatedMemory(
        id=d["id"], content=d["content"], status=d["status"], created_at=d["createdAt"],
        resolved=d["resolved"], resolution=d["resolution"],
    )  # fmt: skip


def memory_history(d: Json) -> MemoryHistory:
    return MemoryHistory(
        memory_id=d["memoryId"],
        decisions=tuple(
            Decision(
                id=x["id"],
                at=x["at"],
                source=x["source"],
                action=x["action"],
                memory_id=x["memoryId"],
                target_id=x["targetId"],
                reason=x["reason"],
                decider=x["decider"],
                similarity=x["similarity"],
                content=x["content"],
            )  # fmt: skip
            for x in d["decisions"]
        ),
        versions=tuple(
            MemoryVersion(
                content=v["content"], at=v["at"], reason=v["reason"], decision_id=v["decisionId"]
            )
            for v in d["versions"]
        ),  # fmt: skip
        supersedes=tuple(_related(r) for r in d["supersedes"]),
        superseded_by=tuple(_related(r) for r in d["supersededBy"]),
        contradicts=tuple(_related(r) for r in d["contradicts"]),
    )


def ingest_result(d: Json) -> IngestResult:
    return IngestResult(
        stored=d["stored"],
        duplicates=d["duplicates"],
        extracted_turns=d["extractedTurns"],
        pending_turns=d["pendingTurns"],
        actions={a["action"]: a["count"] for a in d["actions"]},
        turns=tuple(turn_ref(t) for t in d.get("turns") or ()),
        erased=d.get("erased") or 0,
    )


def turn_ref(d: Json) -> TurnRef:
    return TurnRef(
        id=d["id"], session_id=d["sessionId"], turn_index=d["turnIndex"], outcome=d["outcome"]
    )


def link(d: Json) -> Link:
    return Link(weight=d["weight"], confidence=d["confidence"])


def rating(d: Json) -> Rating:
    return Rating(
        memory_id=d["memoryId"],
        confidence=d["confidence"],
        helpful_count=d["helpfulCount"],
        unhelpful_count=d["unhelpfulCount"],
    )


def health(d: Json) -> Health:
    return Health(
        backend=d["backend"],
        graph=d["graph"],
        embedder_loaded=d["embedderLoaded"],
        embedding_model=d["embeddingModel"],
        embedding_backend=d["embeddingBackend"],
    )


# --- writing GraphQL JSON ------------------------------------------------------------------


def memory_input(m: model.NewMemory) -> Json:
    return {
        "content": m.content,
        "memoryType": m.memory_type.upper(),
        "scope": m.scope.upper(),
        "project": m.project,
        "sessionId": m.session_id,
        "provenance": m.provenance.upper(),
        "source": {
            "sessionId": m.source.session_id,
            "messages": m.source.messages,
            "filePaths": list(m.source.file_paths),
            "snippet": m.source.snippet,
        },
        "confidence": m.confidence,
        "trustScore": m.trust_score,
        "tags": list(m.tags),
        "triggerPatterns": list(m.trigger_patterns),
        "steps": list(m.steps),
        "prerequisites": list(m.prerequisites),
        "warnings": list(m.warnings),
        "occurredAt": m.occurred_at,
    }


def memory_filter(f: model.MemoryFilter) -> Json:
    return {
        "memoryType": _upper(f.memory_type),
        "scope": _upper(f.scope),
        "tag": f.tag,
        "status": _upper(f.status),
        "text": f.text,
        "project": f.project,
        "sessionId": f.session_id,
    }


def turn_input(t: Turn) -> Json:
    return {
        "sessionId": t.session_id,
        "turnIndex": t.turn_index,
        "text": t.text,
        "speaker": t.speaker,
        "role": t.role,
        "timestamp": t.timestamp,
        "filePaths": list(t.file_paths),
        "toolCalls": [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in t.tool_calls],
        "toolResults": [
            {"callId": r.call_id, "content": r.content, "status": r.status} for r in t.tool_results
        ],
        "metadata": t.metadata,
        "messageId": t.message_id,
    }


def _upper(value: str | None) -> str | None:
    return value.upper() if value is not None else None
