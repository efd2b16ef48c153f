"""What one recall works on: the question as the stages read it (``Query``, its ``Cues``
computed once) and the candidates every stage reads and adds to (``Pool``, one ``Candidate``
per memory reached, with its ``Ranking`` fields once read). Nothing else holds a recall's
state: a stage is a function over the query and the pool."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

from hippograph.graph.model import effective_confidence
from hippograph.graph.recall.caches import RecallCaches
from hippograph.graph.recall.recall_config import CascadeConfig
from hippograph.graph.recall.results import RecallRequest, Step
from hippograph.graph.store.store import Store


@dataclass(frozen=True, slots=True)
class Ranking:
    """What ranking reads of a memory, in the order recall/scores and recall/expand list it
    (each answers one row of lists: the embedded engine's cost per returned row is most of a
    small read, so a memory's fields travel as a list and are named here, once)."""

    status: str
    memory_type: str
    created_at: str
    last_accessed: str | None
    # As stored: the decayed confidence, the stated one (moved by feedback) and the trust.
    stored_confidence: float | None
    initial_confidence: float | None
    trust_score: float | None
    importance: float | None
    speakers: list[str] | None  # its speaker:<name> tags, read only when a cue needs them
    cosine: float  # to the query (moved by feedback)
    length: int | None  # of its content, in characters
    asks: bool  # its content ends in a question mark

    @classmethod
    def decode(cls, values: Sequence[Any]) -> Ranking:
        """The fields from a statement's list (``RANKING_FIELDS`` order)."""
        if len(values) != len(RANKING_FIELDS):  # the statement and this record disagree
            raise ValueError(f"a ranking row of {len(values)} fields, not {len(RANKING_FIELDS)}")
        return cls(*values)

    @property
    def confidence(self) -> float | None:
        """What ranking reads: the decayed value, never below the stated one x trust."""
        return effective_confidence(
            self.stored_confidence, self.initial_confidence, self.trust_score
        )


RANKING_FIELDS = tuple(f.name for f in fields(Ranking))


@dataclass(slots=True)
class Candidate:
    """One memory a recall reached: the sources that found it, how activation reached it and
    what ranking reads of it."""

    id: str
    # vector, fulltext, speaker, vocabulary, standing, entity (mentions one the context names),
    # successor (a seed's replacement), or expanded (reached by expansion only)
    kinds: set[str] = field(default_factory=set)
    seed: str = ""  # the seed it was reached from (itself for a seed)
    path: tuple[Step, ...] = ()  # the edges followed from that seed
    activation: float = 0.0  # what it passes on
    received: float = 0.0  # the most it received from another memory
    ranking: Ranking | None = None  # once read (recall/scores or recall/expand)


class Hits(NamedTuple):
    """What one source found: id -> score (best first), which are not active, element ids."""

    scores: dict[str, float]
    retired: set[str]
    eids: dict[str, str]


@dataclass(frozen=True, kw_only=True)
class Cues:
    """What the context says besides its topic, read once (`cues`)."""

    searched: str  # the context without the named speakers and the reporting frame
    named: frozenset[str]  # the speakers it names
    restates: frozenset[str]  # the namespace's restating speakers (rank.restating)
    addressed: frozenset[str]  # the speaker it asks about as "you", or none

    @property
    def speaker(self) -> str | None:
        """The one speaker the context names, if it names one."""
        return next(iter(self.named)) if len(self.named) == 1 else None

    @property
    def reads_speakers(self) -> bool:
        """Whether ranking needs each candidate's speakers: the speaker cue counts when one
        speaker is named, the restating discount where one restates (else the engine is spared
        reading every candidate's tags)."""
        return len(self.named) == 1 or bool(self.restates)


@dataclass(frozen=True, kw_only=True)
class Query:
    """One recall's question, as every stage reads it."""

    store: Store
    namespace: str
    request: RecallRequest
    context: str  # the validated context
    k: int
    config: CascadeConfig
    cues: Cues
    # The statuses a candidate may have to be returned; seeds may also be superseded (each is
    # replaced by its successor).
    statuses: list[str]
    # The scope and time filters every seed statement takes ($project, $session_id, $as_of).
    scope: dict[str, Any]
    as_of: str | None
    valid_at: str | None = None  # event time: what held then (validAt)
    caches: RecallCaches  # the pools and caches kept between recalls (the runtime's)

    @property
    def seed_statuses(self) -> list[str]:
        return [*self.statuses, "superseded"]


@dataclass
class Pool:
    """Every candidate of one recall, from every source, as the stages add to it."""

    query: Any  # the query vector, moved toward its best hits by feedback
    vector: dict[str, float] = field(default_factory=dict)  # vector hits: id -> cosine
    fulltext: dict[str, float] = field(default_factory=dict)  # full-text hits: id -> BM25
    top_fulltext: float = 0.0  # the best of them (``take_fulltext``)
    spoken: dict[str, float] = field(default_factory=dict)  # the named speaker's: id -> cosine
    words: dict[str, float] = field(default_factory=dict)  # vocabulary hits: id -> weight
    standing: dict[str, float] = field(default_factory=dict)  # instructions: id -> cosine
    # Memories mentioning an entity the context names: id -> the step from the entity (its
    # weight: the activation received), the strongest first.
    entities: dict[str, Step] = field(default_factory=dict)
    retired: set[str] = field(default_factory=set)  # hits no longer active
    # id -> element id of every memory a statement returned: later statements look memories
    # up by it (direct, not through the id index) and check the id.
    eids: dict[str, str] = field(default_factory=dict)
    candidates: dict[str, Candidate] = field(default_factory=dict)  # the seeds, then reached
    negatives: Future[list[list[str]]] | None = None  # the negative rules that trigger
    hidden: Future[set[str]] | None = None  # as of a past time: what was not current then
    embed_ms: float = 0.0

    def found(self, rows: Sequence[Any], status: Any = "status") -> None:
        """Record the element ids of hits (rows with id, eid and ``status``), and which are
        not active."""
        self.retired.update(r["id"] for r in rows if r[status] != "active")
        self.eids.update((r["id"], r["eid"]) for r in rows)

    def pairs(self, ids: Sequence[str]) -> list[list[str]]:
        """[element id, id] of each memory: how statements look memories up."""
        return [[self.eids[i], i] for i in ids]

    def take_fulltext(self, hits: Hits) -> None:
        """The full-text hits, and their best score: what normalises every candidate's
        full-text part, read per candidate on the ranking's path, so computed once here."""
        self.fulltext = hits.scores
        self.top_fulltext = max(hits.scores.values(), default=0.0)
        self.retired |= hits.retired
        self.eids.update(hits.eids)

    def ranked(self) -> list[Candidate]:
        """The candidates whose ranking fields were read (the others were not found)."""
        return [c for c in self.candidates.values() if c.ranking is not None]
