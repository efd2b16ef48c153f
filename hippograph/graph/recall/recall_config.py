"""The retrieval cascade's configuration, one frozen config per stage (Graphiti's
``search_config.py`` shape): ``recall`` reads the context's cues, gathers candidates from every
seed source, spreads activation over the graph, scores every candidate once, chooses the top k
and builds the answer. Named combinations (the default, each ablation) are in ``recipes``.

Each field says in one line what it does. What each default was measured to add, on which split
and at which commit, is in docs/research/recall.md.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

# What ``rejected`` may ask of a verified recall; formats of a context bundle and the candidates
# it is chosen from (here, not in surface.py and bundle.py: the CLI's parser names them without
# importing the cascade).
REJECTED = ("drop", "flag")
BUNDLE_FORMATS = ("markdown", "json")
# More than a recall's usual 10, so a generous budget has something to fill it with.
BUNDLE_CANDIDATES = 30


@dataclass(frozen=True, kw_only=True)
class CueConfig:
    """What the context says besides its topic (`cues`, `rank.restating`)."""

    # The frame that reports a turn ("did I mention", "when did I say") leaves the searched text.
    unframe: bool = True
    # A speaker whose memories run this many times longer on average than the tersest's restates.
    restating_ratio: float = 2.0
    # A period the context names ("in May 2023") is widened by this many days on each side.
    time_slack_days: int = 31


@dataclass(frozen=True, kw_only=True)
class RelevanceConfig:
    """How relevant a memory is to the context, before the graph and the cues:
    ``alpha x cosine + (1 - alpha) x full-text / best full-text x length factor``."""

    # The cosine's share of relevance; the normalised full-text score has the rest.
    alpha: float = 0.8
    # Longer than this (about what the embedding model reads), a memory's length is discounted.
    long_memory_chars: int = 1000
    # The discount on the activation a long memory receives: 1 / (1 + w x ln(length / long)).
    length_weight: float = 1.0
    # The same discount's weight on a long memory's full-text part.
    fulltext_length_weight: float = 1.5

    def __post_init__(self) -> None:
        if not 0.0 <= self.alpha <= 1.0:
            raise ValueError("CascadeConfig.alpha must be within 0..1")


@dataclass(frozen=True, kw_only=True)
class GatherConfig:
    """The candidates' sources (`seeds`, `vocabulary`, `standing`) and the query's feedback."""

    # Vector-index seeds, the nearest first.
    vector_seeds: int = 10
    # A vector hit seeds at this cosine or above (the nearest ones seed when none does).
    min_seed_cosine: float = 0.4
    # Full-text seeds, the best BM25 first.
    fulltext_seeds: int = 10
    # Seeds said by the one speaker the context names, the nearest first.
    speaker_seeds: int = 3
    # Full-text hits fetched (their best score normalises the full-text part of relevance).
    fulltext_hits: int = 50
    # The shared full-text index is first asked for fulltext_hits x this many hits.
    fulltext_oversample: int = 2
    # At most this many full-text hits fetched while the namespace filter leaves too few.
    fulltext_max_candidates: int = 10_000
    # A query word the namespace holds fewer times than this is searched in its other forms too.
    forms_below: int = 5
    # A word a memory is indexed by only through its context counts this much in BM25.
    context_weight: float = 0.25
    # A word held by more than this share of the namespace weighs as one held by that share.
    df_share: float = 0.2
    # Vocabulary seeds: memories holding a namespace word near the question (0: none).
    vocabulary_seeds: int = 20
    # A vocabulary word counts over this cosine to the question, by (cosine - floor) x rarity.
    vocabulary_floor: float = 0.35
    # The namespace words nearest the question that are weighed.
    vocabulary_words: int = 40
    # At most this many memories are found through one vocabulary word.
    vocabulary_per_word: int = 50
    # Standing instructions whose condition the context asks about that seed and are kept.
    standing_rules: int = 1
    # Besides them, constraints whose domain the context names (its words) that are kept.
    constraint_rules: int = 2
    # An instruction's condition applies at this cosine to the context or above.
    standing_floor: float = 0.4
    # At most this many standing instructions of a namespace are read.
    standing_limit: int = 500
    # Memories that mention an entity the context names (by name or alias), the nearest first
    # (0: entities seed nothing; off by default: recipes.ENTITIES).
    entity_seeds: int = 0
    # At most this many of them per entity.
    entity_per_name: int = 5
    # The activation such a memory receives, x the entity's rarity log(n / degree) / log(n).
    entity_weight: float = 0.5
    # Feedback: the query moves toward the mean of its best hits by this weight (0: none).
    prf_weight: float = 0.3
    # The hits the query moves toward.
    prf_depth: int = 3
    # Search the vector index again with the moved query (else re-rank the hits at hand).
    prf_search: bool = False


@dataclass(frozen=True, kw_only=True)
class SpreadConfig:
    """Breadth-first expansion from the seeds over weighted edges (`expand`)."""

    # Hops from the seeds (0: no expansion).
    depth: int = 2
    # Activation x this per hop.
    hop_decay: float = 0.7
    # At most this many edges followed per memory and edge kind.
    fan_out: int = 10
    # At most this many memories expanded on the first hop, the strongest first.
    frontier: int = 20
    # The same bound on the hops after the first.
    later_frontier: int = 15
    # A shared tag's weight, x its rarity log(n / degree) / log(n).
    has_tag_weight: float = 0.8
    # A shared cluster's weight.
    in_cluster_weight: float = 0.6
    # A supersession's weight.
    supersedes_weight: float = 0.9
    # CONTRADICTS and DERIVED_FROM's weight (RELATES_TO carries its own weight x confidence).
    other_weight: float = 0.3
    # Tags on more memories than this are hubs, not followed.
    max_tag_degree: int = 10
    # Clusters larger than this are not followed.
    max_cluster_size: int = 20
    # RELATES_TO edges under this confidence are not followed.
    edge_floor: float = 0.2
    # A shared entity's weight (MENTIONS, both ways), x its rarity log(n / degree) / log(n)
    # (0: not followed; off by default: recipes.ENTITIES).
    mentions_weight: float = 0.0
    # Activation x this per hop over a shared entity (the other edges: hop_decay).
    entity_hop_decay: float = 0.7
    # Entities more memories than this mention are hubs (a speaker in every turn): neither
    # followed nor seeding (0: no entity is).
    max_entity_degree: int = 50

    def __post_init__(self) -> None:
        if not 0 <= self.depth <= 4:
            raise ValueError("CascadeConfig.depth must be within 0..4")


@dataclass(frozen=True, kw_only=True)
class ScoreConfig:
    """One score per candidate (`rank.rank`): (relevance + activation + cues - asks) x recency
    boost x confidence x (1 + importance weight x importance)."""

    # The activation received counts this much.
    activation_weight: float = 0.6
    # Bonus for a memory said by the one speaker the context names.
    speaker_weight: float = 0.3
    # Bonus for a memory said by the restating speaker when the context asks what "you" said.
    addressee_weight: float = 0.1
    # Bonus for a memory dated inside a period the context names.
    time_weight: float = 0.1
    # Score x (1 + this x PageRank importance).
    importance_weight: float = 0.1
    # A restating speaker's memory counts the activation it receives this much.
    restating_activation: float = 0.5
    # Taken off the score of a memory that ends in a question mark.
    question_discount: float = 0.02
    # Score x (1 + boost x e^(-hours since last access / recency_hours)).
    recency_boost: float = 0.5
    # See recency_boost.
    recency_hours: float = 24.0


@dataclass(frozen=True, kw_only=True)
class ChooseConfig:
    """What of the ranking is returned (`rank.kept`, `rank.session_filter`)."""

    # The best candidates by their own score, without activation, kept inside the top k.
    anchors: int = 2
    # A session's surfaced set is cleared when the context's similarity to the last falls below.
    topic_shift: float = 0.3
    # An already surfaced memory is shown again only if it ranks this high.
    resurface_top: int = 3

    def __post_init__(self) -> None:
        if self.anchors < 0:
            raise ValueError("CascadeConfig.anchors must be 0 or more")


@dataclass(frozen=True, kw_only=True)
class AnswerConfig:
    """The answer around the chosen memories (`surface`)."""

    # A context whose best relevance is under this is a gap (nothing relevant).
    min_relevance: float = 0.35
    # At most this many negative rules of a namespace are read for their triggers.
    negative_rules_limit: int = 500
    # The best answer's second hop (a memory about what it names) is put right after it.
    bridge: bool = True
    # A newer memory telling a change is put above an older one it updates (the two at least
    # this close) when the question asks how things are now (0 or below: never).
    update_near: float = 0.45


STAGES = ("cues", "relevance", "gather", "spread", "score", "choose", "answer")


@dataclass(frozen=True, kw_only=True)
class CascadeConfig:
    """The whole cascade: one config per stage. ``changed`` sets fields by their own names."""

    cues: CueConfig = CueConfig()
    relevance: RelevanceConfig = RelevanceConfig()
    gather: GatherConfig = GatherConfig()
    spread: SpreadConfig = SpreadConfig()
    score: ScoreConfig = ScoreConfig()
    choose: ChooseConfig = ChooseConfig()
    answer: AnswerConfig = AnswerConfig()

    def changed(self, **values: Any) -> CascadeConfig:
        """This cascade with the named fields set, wherever their stage: ``changed(anchors=0)``.
        A name no stage has is a ValueError (every field name is unique across the stages)."""
        owners = field_stages()
        unknown = sorted(set(values) - owners.keys())
        if unknown:
            raise ValueError(f"not a CascadeConfig field: {', '.join(unknown)}")
        stages: dict[str, Any] = {}
        for stage in STAGES:
            mine = {n: v for n, v in values.items() if owners[n] == stage}
            if mine:
                stages[stage] = replace(getattr(self, stage), **mine)
        return replace(self, **stages)

    def flat(self) -> dict[str, Any]:
        """Every field by its own name (what ``changed`` takes)."""
        return {
            f.name: getattr(getattr(self, stage), f.name)
            for stage in STAGES
            for f in fields(getattr(self, stage))
        }


def field_stages() -> dict[str, str]:
    """Each field's name -> the stage that holds it."""
    owners: dict[str, str] = {}
    for stage in STAGES:
        for f in fields(CascadeConfig.__dataclass_fields__[stage].default):  # type: ignore[arg-type]
            if f.name in owners:  # pragma: no cover - a definition error, caught by the tests
                raise TypeError(f"{f.name} is in both {owners[f.name]} and {stage}")
            owners[f.name] = stage
    return owners


def field_types() -> dict[str, type]:
    """Each field's name -> its type (bool, int, float): what a command line parses."""
    kinds = {"bool": bool, "int": int, "float": float}
    return {
        f.name: kinds[str(f.type)]
        for stage in STAGES
        for f in fields(CascadeConfig.__dataclass_fields__[stage].default)  # type: ignore[arg-type]
    }
