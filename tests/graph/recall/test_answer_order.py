"""The answer's order after ranking (recall/surface.py): a newer value above the one it
updates, the best answer's second hop after it. Pure functions over recalled memories."""

from __future__ import annotations

from typing import Any

from hippograph.graph.model import Memory, Source
from hippograph.graph.recall.results import Recalled
from hippograph.graph.recall.surface import bridged, scored_in_order, updates_first


def _recalled(content: str, at: str, i: int) -> Recalled:
    memory = Memory(
        id=f"m{i}", namespace="ns", content=content, content_hash="", memory_type="fact",
        scope="global", project=None, session_id=None, provenance="user_stated",
        source=Source(), created_at=at, updated_at=at, last_accessed=None, access_count=0,
        strength=1, reinforcements=(), confidence=0.9, trust_score=1.0, status="active",
        superseded_by=None, trigger_patterns=(), steps=(), prerequisites=(), warnings=(), tags=(),
    )  # fmt: skip
    return Recalled(memory=memory, score=1.0 - i / 10)


def _items(*said: tuple[str, str]) -> list[Recalled]:
    return [_recalled(content, at, i) for i, (content, at) in enumerate(said)]


def _order(items: list[Recalled]) -> list[str]:
    return [r.memory.content for r in items]


def test_a_newer_value_of_the_same_attribute_goes_above_the_older() -> None:
    items = _items(
        ("Tomás: I live in Valencia and I'm looking for a climbing gym.", "2025-01-10"),
        ("Tomás: We finally moved to Bilbao at the end of March.", "2025-04-02"),
    )
    vectors: dict[str, Any] = {}  # far apart as embeddings: the attribute decides
    assert _order(updates_first(items, vectors, 0.45))[0].startswith("Tomás: We finally moved")


def test_a_close_newer_change_goes_above_and_an_unrelated_one_stays() -> None:
    items = _items(
        ("We come back from Iceland on the 21st.", "2025-01-10"),
        ("Our return flight is now on the 23rd.", "2025-02-01"),
    )
    close = {"m0": [1.0, 0.0], "m1": [0.8, 0.6]}
    far = {"m0": [1.0, 0.0], "m1": [0.0, 1.0]}
    assert _order(updates_first(items, close, 0.45))[0] == "Our return flight is now on the 23rd."
    assert _order(updates_first(items, far, 0.45)) == _order(items)


def test_an_older_statement_is_not_moved_above_a_newer_one() -> None:
    items = _items(
        ("Our return flight is now on the 23rd.", "2025-02-01"),
        ("We come back from Iceland on the 21st.", "2025-01-10"),
    )
    vectors = {"m0": [1.0, 0.0], "m1": [1.0, 0.0]}
    assert _order(updates_first(items, vectors, 0.45)) == _order(items)


def test_the_second_hop_follows_the_answer_that_names_it() -> None:
    items = _items(
        ("Pepper is Hiro's cat, a twelve-year-old tabby.", "2025-01-01"),
        ("Hiro's dentist is Dr. Kim on 5th Avenue.", "2025-01-01"),
        ("Hiro works night shifts at the hospital on weekends.", "2025-01-01"),
        ("Dr. Alvarez at Eastside Animal Clinic is Pepper's vet.", "2025-01-01"),
    )
    found = _order(bridged("Hiro's cat is limping, who should he call?", items))
    assert found[:2] == [
        "Pepper is Hiro's cat, a twelve-year-old tabby.",
        "Dr. Alvarez at Eastside Animal Clinic is Pepper's vet.",
    ]


def test_no_hop_when_nothing_below_shares_the_answers_names() -> None:
    items = _items(
        ("Caroline went to a support group yesterday.", "2025-01-01"),
        ("Melanie painted a sunset.", "2025-01-01"),
        ("Caroline: I love the beach.", "2025-01-01"),
    )
    assert _order(bridged("What did Caroline do yesterday?", items)) == _order(items)


def test_scores_read_in_the_answers_order() -> None:
    items = _items(("a", "2025-01-01"), ("b", "2025-01-01"), ("c", "2025-01-01"))
    moved = [items[2], items[0], items[1]]  # "c" (0.8) put ahead of "a" (1.0) and "b" (0.9)
    assert [r.score for r in scored_in_order(moved)] == [1.0, 1.0, 0.9]
    assert scored_in_order(items) == items
