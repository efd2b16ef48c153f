"""What a consolidation run works with and answers: its configuration, the memories it plans
over, the operations it decides, the groups they are applied in, and its report."""

from __future__ import annotations

from dataclasses import dataclass, field

from hippograph.graph.upkeep.entity_upkeep import MergeProposal


@dataclass(frozen=True, kw_only=True)
class ConsolidationConfig:
    """min_interval_s / min_new_facts: the gate; weak_*: what counts as weak (faded under
    ``weak_max_confidence``, restated at most ``weak_max_strength`` times, stored with (or moved
    by feedback to) at most ``weak_max_base``) and ``weak_grace_days``: how long a weak memory
    must have gone unused (counted on the service clock from when it was learned or last used,
    reinforced or confirmed) before it is archived;
    llm_max_calls: with an LLM decider, at most this many model calls a run; the candidates
    past it are decided by the offline rules (their decisions say so), so a first run over a
    large namespace cannot ask the model once per close pair."""

    min_interval_s: float = 3600.0
    min_new_facts: int = 20
    weak_max_confidence: float = 0.05
    weak_max_strength: int = 1
    weak_max_base: float = 0.5
    weak_grace_days: float = 30.0
    llm_max_calls: int = 500


DEFAULT_CONSOLIDATION = ConsolidationConfig()


@dataclass(frozen=True, kw_only=True)
class Operation:
    op: str  # merge, correct, supersede, resolve, flag, archive
    namespace: str
    keep: str | None  # the memory that stays current (survivor, newer, winner)
    other: str  # the memory retired or flagged
    reason: str
    decider: str


@dataclass
class Group:
    namespace: str
    members: set[str]
    operations: list[Operation] = field(default_factory=list)
    snapshot: dict[str, str] = field(default_factory=dict)  # id -> updated_at when planned


@dataclass(frozen=True, kw_only=True)
class ConsolidationReport:
    run_id: str | None
    ran: bool
    dry_run: bool
    scope: str
    skipped: str | None
    started_at: str
    finished_at: str
    counts: dict[str, int]
    operations: tuple[Operation, ...]
    errors: tuple[str, ...]
    watermark_before: str | None
    watermark_after: str | None
    # Entities that name one thing, proposed and never merged by the run (entity_upkeep).
    entity_merges: tuple[MergeProposal, ...] = ()


@dataclass
class Mem:
    id: str
    namespace: str
    scope_key: str
    memory_type: str
    content: str
    provenance: str
    confidence: float
    strength: int
    created_at: str
    updated_at: str
