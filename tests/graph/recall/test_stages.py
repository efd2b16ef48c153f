"""The cascade's stage configs and recipes, and the stages that are pure functions over what the
store has read: a hop's activation (``expand.receive``) and the ranking (``rank.rank``). No engine,
no model: these run in the fast tier."""

from __future__ import annotations

import math
from concurrent.futures import Future
from dataclasses import fields
from typing import Any, cast

import pytest

from hippograph.graph.recall import caches, expand, rank
from hippograph.graph.recall.candidates import (
    RANKING_FIELDS,
    Candidate,
    Cues,
    Hits,
    Pool,
    Query,
    Ranking,
)
from hippograph.graph.recall.recall_config import STAGES, CascadeConfig, field_stages
from hippograph.graph.recall.recipes import ABLATIONS, DEFAULT_CASCADE, SEEDS_ONLY
from hippograph.graph.recall.results import RecallRequest
from hippograph.graph.store.store import Store

NOW = "2026-11-29T00:00:00+00:00"


def test_every_field_belongs_to_one_stage_and_changed_routes_it() -> None:
    owners = field_stages()
    assert set(owners.values()) == set(STAGES)
    assert sum(len(fields(getattr(DEFAULT_CASCADE, s))) for s in STAGES) == len(owners)
    changed = DEFAULT_CASCADE.changed(anchors=0, depth=1, alpha=0.5)
    assert (changed.choose.anchors, changed.spread.depth, changed.relevance.alpha) == (0, 1, 0.5)
    assert changed.gather == DEFAULT_CASCADE.gather  # untouched stages are the default's
    assert DEFAULT_CASCADE.changed(**DEFAULT_CASCADE.flat()) == DEFAULT_CASCADE
    with pytest.raises(ValueError, match="not a CascadeConfig field: nonsense"):
        DEFAULT_CASCADE.changed(nonsense=1)
    with pytest.raises(ValueError, match="depth"):
        DEFAULT_CASCADE.changed(depth=9)


def test_each_ablation_changes_what_its_name_says() -> None:
    default = DEFAULT_CASCADE.flat()
    moved = {
        name: {k for k, v in config.flat().items() if v != default[k]}
        for name, config in ABLATIONS.items()
    }
    assert moved == {
        "no-vocabulary": {"vocabulary_seeds"},
        "no-addressee": {"addressee_weight"},
        "framed": {"unframe"},
        "no-anchors": {"anchors"},
        "no-standing": {"standing_rules"},
        "no-expand": {"depth"},
        "entities": {"entity_seeds", "mentions_weight"},
        "seeds-only": {
            "depth", "speaker_weight", "addressee_weight", "time_weight", "prf_weight",
            "standing_rules",
        },
    }  # fmt: skip
    assert ABLATIONS["seeds-only"] is SEEDS_ONLY


def _ranking(cosine: float, **changes: Any) -> list[Any]:
    values: dict[str, Any] = {
        "status": "active", "memory_type": "fact", "created_at": NOW, "last_accessed": None,
        "stored_confidence": 1.0, "initial_confidence": 1.0, "trust_score": None,
        "importance": 0.0, "speakers": None, "cosine": cosine, "length": 40, "asks": False,
    }  # fmt: skip
    values.update(changes)
    return [values[f] for f in RANKING_FIELDS]


def _query(config: CascadeConfig = DEFAULT_CASCADE, **request: Any) -> Query:
    # rank and receive never reach the store: a query for them needs none.
    return Query(
        store=cast(Store, None),
        namespace="ns",
        request=RecallRequest(context="what does Ada drink", **request),
        context="what does Ada drink",
        k=3,
        config=config,
        cues=Cues(
            searched="what does Ada drink",
            named=frozenset(),
            restates=frozenset(),
            addressed=frozenset(),
        ),
        statuses=["active"],
        scope={},
        as_of=None,
        caches=caches.DEFAULT,
    )


def test_a_hop_passes_activation_on_along_weighted_edges() -> None:
    """A seed's relevance is its activation; an edge passes activation x weight x hop decay;
    a memory keeps the largest amount it receives, and the path it came by."""
    config = DEFAULT_CASCADE
    pool = Pool(query=None, eids={"s": "e-s"})
    pool.candidates["s"] = Candidate(id="s", kinds={"vector"}, seed="s")
    head: list[Any] = ["s", "s", "e-s", "SELF", 0.0, "", 0]
    weak: list[Any] = ["s", "a", "e-a", "RELATES_TO", 0.5, "similar", 0]
    strong: list[Any] = ["s", "a", "e-a", "SUPERSEDES", 1.0, "", 0]
    hits = [head + _ranking(0.9), weak + _ranking(0.2), strong + _ranking(0.2)]
    touched = expand.receive(pool, hits, config, total=100)
    seed, reached = pool.candidates["s"], pool.candidates["a"]
    assert seed.activation == pytest.approx(config.relevance.alpha * 0.9)
    decay = config.spread.hop_decay
    supersedes = config.spread.supersedes_weight  # 0.9 > 0.5: the stronger edge wins
    assert reached.received == pytest.approx(seed.activation * supersedes * decay)
    assert touched == {"a": reached.received}
    assert reached.kinds == {"expanded"} and reached.seed == "s"
    assert [(p.from_id, p.to_id, p.type) for p in reached.path] == [("s", "a", "SUPERSEDES")]
    assert pool.eids["a"] == "e-a" and reached.ranking is not None
    assert reached.ranking.cosine == 0.2


def test_a_rare_tag_weighs_more_than_a_common_one() -> None:
    spread = DEFAULT_CASCADE.spread
    rare = expand.edge_weight("HAS_TAG", 1.0, 2, spread, 1000)
    common = expand.edge_weight("HAS_TAG", 1.0, 10, spread, 1000)
    assert rare == pytest.approx(spread.has_tag_weight * math.log(500) / math.log(1000))
    assert rare > common > 0
    assert expand.edge_weight("RELATES_TO", 0.42, 0, spread, 1000) == 0.42


def _pool(*candidates: tuple[str, list[Any], float]) -> Pool:
    """A pool of candidates as the spread stage leaves it: (id, ranking fields, received)."""
    pool = Pool(query=None)
    for memory_id, values, received in candidates:
        pool.candidates[memory_id] = Candidate(
            id=memory_id, seed=memory_id, received=received, ranking=Ranking.decode(values)
        )
    return pool


def test_the_ranking_recombines_relevance_activation_and_cues() -> None:
    pool = _pool(
        ("plain", _ranking(0.6), 0.0),
        ("spread", _ranking(0.5), 0.3),
        ("asks", _ranking(0.6, asks=True), 0.0),
        ("doubted", _ranking(0.7, stored_confidence=0.2, initial_confidence=0.5), 0.0),
        ("gone", _ranking(0.9, status="superseded"), 0.0),
    )
    pool.take_fulltext(Hits({"plain": 2.0, "spread": 4.0}, set(), {}))
    ranked, best = rank.rank(_query(), pool)
    config = DEFAULT_CASCADE
    alpha = config.relevance.alpha
    by_id = {r.id: r for r in ranked}
    assert "gone" not in by_id  # not a status the query returns
    assert by_id["plain"].relevance == pytest.approx(alpha * 0.6 + (1 - alpha) * 0.5)
    spread = by_id["spread"]
    expected = alpha * 0.5 + (1 - alpha) * 1.0 + config.score.activation_weight * 0.3
    assert spread.score == pytest.approx(expected)
    assert spread.direct == pytest.approx(expected - config.score.activation_weight * 0.3)
    assert by_id["asks"].score == pytest.approx(alpha * 0.6 - config.score.question_discount)
    # Never below the stated confidence: 0.5, not the decayed 0.2.
    assert by_id["doubted"].confidence == 0.5
    assert by_id["doubted"].score == pytest.approx(alpha * 0.7 * 0.5)
    assert [r.id for r in ranked] == sorted(by_id, key=lambda i: -by_id[i].score)
    assert best == pytest.approx(max(r.relevance for r in ranked))


def test_the_ranking_leaves_out_other_types_and_what_was_hidden() -> None:
    pool = _pool(
        ("fact", _ranking(0.6), 0.0),
        ("rule", _ranking(0.6, memory_type="negative"), 0.0),
        ("later", _ranking(0.9), 0.0),
    )
    hidden: Future[set[str]] = Future()
    hidden.set_result({"later"})
    pool.hidden = hidden
    ranked, _ = rank.rank(_query(memory_types=("fact",)), pool)
    assert [r.id for r in ranked] == ["fact"]
