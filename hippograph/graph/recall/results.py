"""What a recall is asked and what it answers: the request, the ranked items with their
explanations (seed kinds, the path of edges followed, the score's components) and history."""

from __future__ import annotations

from dataclasses import dataclass

from hippograph.graph.model import Memory


@dataclass(frozen=True, kw_only=True)
class RecallRequest:
    context: str
    k: int = 10
    project: str | None = None
    session_id: str | None = None
    memory_types: tuple[str, ...] = ()
    include_archived: bool = False
    include_history: bool = False
    explain: bool = False
    # With an LLM configured, have it check the best candidates (graph.recall.verify);
    # rejected ones are dropped ("drop") or returned marked ("flag").
    verify: bool = False
    rejected: str = "drop"
    # A recall that finds nothing relevant (a gap) returns no memories unless this asks for
    # the nearest anyway (negative rules that trigger are always returned).
    include_gap: bool = False
    # ISO time: answer as the store stood then (Memory.current_at); superseded memories current
    # then come back as themselves, not as their successors.
    as_of: str | None = None
    # ISO time (event time): what was true then, as the store knows it now: memories whose
    # fact held then (created_at <= it < valid_until), superseded ones included.
    valid_at: str | None = None


@dataclass(frozen=True, kw_only=True)
class Step:
    """One edge followed during expansion."""

    from_id: str
    to_id: str
    type: str
    via: str
    weight: float


@dataclass(frozen=True, kw_only=True)
class Explanation:
    seed: str  # the seed the memory was reached from (itself for a seed)
    # vector, fulltext, speaker, vocabulary, successor, trigger, expanded
    seed_kinds: tuple[str, ...]
    path: tuple[Step, ...]
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
    # The length factor (recall.seeds.length_factor) on the activation; the full-text part has
    # its own (CascadeConfig.relevance.fulltext_length_weight), within relevance.
    length: float = 1.0
    # The factor on the activation of a memory said by a restating speaker (rank.restating).
    restated: float = 1.0
    # What the score lost for a memory that asks a question (CascadeConfig.score.question_discount).
    asks: float = 0.0
    # What the score gained as said by the one the context asks about as "you"
    # (CascadeConfig.score.addressee_weight).
    addressee: float = 0.0


@dataclass(frozen=True, kw_only=True)
class HistoryEntry:
    id: str
    content: str
    created_at: str
    superseded_at: str | None  # service clock: when the service learned it was replaced
    valid_until: str | None  # event time: when it stopped being true (its successor began)
    reason: str | None


@dataclass(frozen=True, kw_only=True)
class Recalled:
    memory: Memory
    score: float
    flagged: bool = False
    # A standing instruction or constraint whose condition the context matches: it applies,
    # so it is returned whatever the gap verdict.
    applies: bool = False
    rejected: bool = False  # the LLM found it irrelevant (returned only with rejected="flag")
    history: tuple[HistoryEntry, ...] = ()
    explanation: Explanation | None = None


@dataclass(frozen=True, kw_only=True)
class RecallResult:
    items: tuple[Recalled, ...]
    gap: bool
    best_relevance: float
    topic_reset: bool
    embed_ms: float
    total_ms: float
    # "not requested", "verified", or "unverified: <why>" (graph.recall.verify)
    verification: str = "not requested"
    verdict: Verdict | None = None


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """What relevance verification found among the checked candidates."""

    status: str  # "verified", or "unverified: <why>"
    relevant: tuple[str, ...] = ()
    rejected: tuple[str, ...] = ()

    @property
    def verified(self) -> bool:
        return self.status == "verified"
