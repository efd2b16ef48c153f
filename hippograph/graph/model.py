"""Domain records: pure, frozen data. Functions in the aggregate modules return these."""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from hippograph.graph import clock

MemoryType = Literal["fact", "preference", "procedure", "correction", "negative"]
Scope = Literal["global", "project", "session"]
Provenance = Literal["user_stated", "user_corrected", "observed", "inferred", "extracted"]
Status = Literal["active", "superseded", "archived"]

MEMORY_TYPES: tuple[str, ...] = ("fact", "preference", "procedure", "correction", "negative")
SCOPES: tuple[str, ...] = ("global", "project", "session")
PROVENANCES: tuple[str, ...] = (
    "user_stated",
    "user_corrected",
    "observed",
    "inferred",
    "extracted",
)
STATUSES: tuple[str, ...] = ("active", "superseded", "archived")
# Relationship types a caller may create with `link`; spliced into no query, each has its own file.
LINK_RELATIONS: tuple[str, ...] = ("RELATES_TO", "CONTRADICTS", "DERIVED_FROM")

# Initial confidence when the caller gives none: how much the way we learned it is worth.
DEFAULT_CONFIDENCE: dict[str, float] = {
    "user_stated": 0.9,
    "user_corrected": 0.95,
    "observed": 0.7,
    "extracted": 0.7,
    "inferred": 0.5,
}


def now_iso() -> str:
    """The service clock's time (``graph.clock``), fixed-width ISO-8601 (sorts correctly as a
    string on every backend)."""
    return to_iso(clock.now())


def to_iso(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def scope_key(scope: object, project: object, session_id: object) -> str | None:
    """A memory's visibility bucket, stored on it as ``scope_key``: ``global``,
    ``project:<project>`` or ``session:<session id>``; None for a project or session scope
    without its project or session (no recall sees such a memory)."""
    if scope == "global":
        return "global"
    if scope == "project" and project is not None:
        return f"project:{project}"
    if scope == "session" and session_id is not None:
        return f"session:{session_id}"
    return None


def scopes(project: str | None, session_id: str | None) -> list[str]:
    """The scope keys a recall for ``project`` and ``session_id`` (None: none) sees, the
    ``$scopes`` of every statement that filters by visibility (``m.scope_key IN $scopes``):
    global memories, those of its project and those of its session."""
    keys = [key for key in (scope_key("project", project, None),
                            scope_key("session", None, session_id)) if key is not None]  # fmt: skip
    return ["global", *keys]


def effective_confidence(
    confidence: float | None, initial: float | None, trust: float | None
) -> float | None:
    """The confidence ranking reads: the decayed ``confidence``, never below the stated one
    (``initial``, moved by feedback; the decayed value where none is stored) x ``trust``
    (1 where none is stored). None where the memory holds neither value."""
    base = initial if initial is not None else confidence
    stated = None if base is None else base * (trust if trust is not None else 1.0)
    if confidence is not None and stated is not None and confidence >= stated:
        return confidence
    return stated


_SPACE = re.compile(r"\s+")


def normalize_content(content: str) -> str:
    """Normal form used for exact-duplicate detection: NFKC, casefolded, whitespace collapsed,
    trailing sentence punctuation dropped."""
    text = unicodedata.normalize("NFKC", content).casefold()
    return _SPACE.sub(" ", text).strip().rstrip(".!").strip()


def content_hash(content: str) -> str:
    return hashlib.sha256(normalize_content(content).encode("utf-8")).hexdigest()


# A conversation memory is written "Speaker: text" (graph/write/formation.py); the same words
# said by someone else, or remembered without the prefix, are the same statement.
_SPEAKER_PREFIX = re.compile(r"^[A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,2}:\s+(?=\S)")


def body_hash(content: str) -> str:
    """``content_hash`` of the content without a leading "Speaker: " prefix."""
    return content_hash(_SPEAKER_PREFIX.sub("", content, count=1))


@dataclass(frozen=True, kw_only=True)
class Source:
    """Where a memory came from: session, message range (or a turn id), files, a snippet."""

    session_id: str | None = None
    messages: str | None = None
    file_paths: tuple[str, ...] = ()
    snippet: str | None = None


@dataclass(frozen=True, kw_only=True)
class ChunkPosition:
    """Where a memory made from a piece of a long turn sits in it: piece ``index`` of ``count``
    (from 0), characters ``start``..``end`` of the turn's text as its episode stores it."""

    index: int
    count: int
    start: int
    end: int


@dataclass(frozen=True, kw_only=True)
class Reinforcement:
    """A breadcrumb left each time the same memory is stated again."""

    at: str
    session_id: str | None = None
    message: str | None = None


@dataclass(frozen=True, kw_only=True)
class NewMemory:
    """What a caller asks to remember (validated by `validate.new_memory`)."""

    content: str
    memory_type: str = "fact"
    scope: str = "global"
    project: str | None = None
    session_id: str | None = None
    provenance: str = "user_stated"
    source: Source = field(default_factory=Source)
    confidence: float | None = None
    trust_score: float = 1.0
    tags: tuple[str, ...] = ()
    trigger_patterns: tuple[str, ...] = ()
    steps: tuple[str, ...] = ()
    prerequisites: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    occurred_at: str | None = None  # when it happened/was said, if not now
    chunk: ChunkPosition | None = None  # a piece of a turn too long for one memory


@dataclass(frozen=True, kw_only=True)
class Memory:
    id: str
    namespace: str
    content: str
    content_hash: str
    memory_type: str
    scope: str
    project: str | None
    session_id: str | None
    provenance: str
    source: Source
    created_at: str
    updated_at: str
    last_accessed: str | None
    access_count: int
    strength: int
    reinforcements: tuple[Reinforcement, ...]
    confidence: float
    trust_score: float
    status: str
    superseded_by: str | None
    trigger_patterns: tuple[str, ...]
    steps: tuple[str, ...]
    prerequisites: tuple[str, ...]
    warnings: tuple[str, ...]
    tags: tuple[str, ...]
    importance: float | None = None
    # Two clocks: created_at is event time (when the fact held or was said: the caller's
    # occurred_at, else when it was stored) and opens the fact's validity; recorded_at is the
    # service clock's instant it learned the fact (a store from before it was kept: created_at).
    recorded_at: str | None = None
    valid_until: str | None = None  # event time its successor began (set by supersede)
    superseded_at: str | None = None  # service clock: when it was superseded
    archived_at: str | None = None  # service clock: when it was archived or soft-forgotten
    chunk: ChunkPosition | None = None  # a piece of a turn too long for one memory

    @property
    def learned_at(self) -> str:
        return self.recorded_at or self.created_at

    def current_at(self, as_of: str) -> bool:
        """Whether the store held this memory as current at ``as_of`` (service clock, ISO):
        learned by then, and neither superseded nor archived by then."""
        if self.learned_at > as_of:
            return False
        if self.status == "active":
            return True
        ended = self.superseded_at or self.archived_at or self.updated_at
        return ended > as_of


@dataclass(frozen=True, kw_only=True)
class RememberResult:
    """Outcome of remembering one item: created, or an existing memory reinforced or updated.

    action: the write path's decision (ADD, UPDATE, SUPERSEDE, CONTRADICT, NOOP).
    target: the existing memory the decision was about (None for ADD).
    reason: why, in the decider's words.
    """

    memory: Memory
    created: bool
    action: str = "ADD"
    target: str | None = None
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class ScoredMemory:
    memory: Memory
    score: float


@dataclass(frozen=True, kw_only=True)
class Page:
    items: tuple[Memory, ...]
    next_cursor: str | None


@dataclass(frozen=True, kw_only=True)
class Tag:
    name: str
    namespace: str
    count: int
    description: str | None = None


@dataclass(frozen=True, kw_only=True)
class MemoryFilter:
    memory_type: str | None = None
    scope: str | None = None
    tag: str | None = None
    status: str | None = "active"
    text: str | None = None
    project: str | None = None
    session_id: str | None = None


@dataclass(frozen=True, kw_only=True)
class ToolCall:
    """A call a message asks a tool to make: its id, the tool's name, its arguments as the
    platform sent them (JSON text, kept as sent)."""

    id: str
    name: str
    arguments: str = ""


@dataclass(frozen=True, kw_only=True)
class ToolResult:
    """What a tool answered to the call ``call_id``; ``status`` is ``ok`` or ``error``."""

    call_id: str
    content: str = ""
    status: str = "ok"


@dataclass(frozen=True, kw_only=True)
class Episode:
    """One ingested conversation turn as the log keeps it (an ``Episode`` node), with the ids
    of the memories derived from it. ``id`` is the turn's stable id; ``uid`` its place
    (namespace|session|turn index)."""

    uid: str
    namespace: str
    session_id: str
    turn_index: int
    speaker: str
    role: str | None
    text: str
    timestamp: str | None
    file_paths: tuple[str, ...]
    recorded_at: str
    high_signal: bool
    signal_kinds: tuple[str, ...]
    extracted_at: str | None
    extractor: str | None
    memory_ids: tuple[str, ...] = ()
    id: str = ""
    message_id: str | None = None  # the client's id of the message (its idempotency key)
    tool_calls: tuple[ToolCall, ...] = ()
    tool_results: tuple[ToolResult, ...] = ()
    metadata: Mapping[str, Any] | None = None


def to_episode(props: Mapping[str, Any], memory_ids: Sequence[str] = ()) -> Episode:
    """The Episode of an ``Episode`` node's properties."""
    return Episode(
        uid=props["uid"],
        namespace=props["namespace"],
        session_id=props["session_id"],
        turn_index=int(props["turn_index"]),
        speaker=props.get("speaker") or "",
        role=props.get("role"),
        text=props["text"],
        timestamp=props.get("said_at"),
        file_paths=tuple(props.get("file_paths") or ()),
        recorded_at=props["recorded_at"],
        high_signal=bool(props.get("high_signal")),
        signal_kinds=tuple(props.get("signal_kinds") or ()),
        extracted_at=props.get("extracted_at"),
        extractor=props.get("extractor"),
        memory_ids=tuple(memory_ids),
        id=props.get("id") or "",
        message_id=props.get("message_id"),
        tool_calls=tuple(ToolCall(**c) for c in _json_list(props.get("tool_calls"))),
        tool_results=tuple(ToolResult(**r) for r in _json_list(props.get("tool_results"))),
        metadata=json.loads(props["metadata"]) if props.get("metadata") else None,
    )


def _json_list(raw: Any) -> list[dict[str, Any]]:
    """A JSON list of objects stored as one string property (a graph property holds no maps)."""
    return list(json.loads(raw)) if raw else []
