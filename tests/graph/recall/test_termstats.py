"""The full-text posting budget: word frequencies counted on the real index, words cut by them."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from hippograph.graph.model import NewMemory
from hippograph.graph.recall import retrieval, termstats
from hippograph.graph.recall.recall_config import DEFAULT_CASCADE
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath


def test_rarest_words_are_kept_within_the_budget_in_query_order() -> None:
    frequencies = {"likes": 10_000, "ana": 5_000, "garden": 6_000, "oboe": 3}
    words = ["ana", "likes", "garden", "oboe", "unheard"]
    # unknown words stay; then oboe (3) + ana (5,000) fit 10,000, garden would not
    assert termstats.select_terms(words, frequencies, 10_000) == ["ana", "oboe", "unheard"]
    assert termstats.select_terms(words, frequencies, 2) == ["unheard"]
    assert termstats.select_terms(["likes"], frequencies, 10_000) == ["likes"]
    assert termstats.select_terms(["likes"], frequencies, 9_999) == []


def remember(rt: Runtime, ns: str, *texts: str) -> None:
    items = [NewMemory(content=t) for t in texts]
    writepath.remember(rt.store, rt.embedder, ns, items, policy=rt.policy)


def test_frequencies_are_counted_on_the_index_and_capped(
    any_runtime: Runtime, namespace: str
) -> None:
    remember(
        any_runtime,
        namespace,
        *[f"Quokka sighting number {i} near the {p}" for i, p in enumerate("abcdef")],
        "A single wombat crossed the road",
    )
    stats = termstats.TermFrequencies(any_runtime.store, budget=3)
    counted = stats.count(["quokka", "wombat", "xylograph"])
    assert counted == {"quokka": 4, "wombat": 1, "xylograph": 0}  # quokka: capped at budget + 1
    with ThreadPoolExecutor(1) as pool:
        assert stats.select(["quokka", "wombat"], pool) == ["wombat"]
        # an unknown word is kept now and counted for the next query
        assert stats.frequency("zorilla") is None
        assert stats.select(["zorilla"], pool) == ["zorilla"]
    assert stats.frequency("zorilla") == 0


def test_recall_leaves_out_words_over_the_budget(
    runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A word the index matches too often costs more than it tells: the query drops it, and
    full-text seeds come from the rarer words only."""
    remember(
        runtime,
        namespace,
        *[f"Kestrel report {i}: the {p} was quiet" for i, p in enumerate(["dam", "moor", "pier"])],
        "Kestrel report 9: a heron fished the canal",
    )
    stats = termstats.TermFrequencies(runtime.store, budget=2)
    monkeypatch.setattr(termstats, "for_store", lambda store: stats)
    stats.count(["kestrel", "report", "heron", "canal"])
    result = retrieval.recall(
        runtime.store,
        runtime.embedder,
        namespace,
        retrieval.RecallRequest(context="kestrel report heron", explain=True),
        DEFAULT_CASCADE,
    )
    lexical = {
        i.memory.content
        for i in result.items
        if i.explanation is not None and i.explanation.fulltext > 0
    }
    assert lexical == {"Kestrel report 9: a heron fished the canal"}


def test_a_failed_count_is_retried_by_a_later_query(runtime: Runtime) -> None:
    stats = termstats.TermFrequencies(runtime.store, budget=10)

    def failing(name: str, /, **params: object) -> list[dict[str, object]]:
        raise RuntimeError("engine away")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runtime.store, "read", failing)
        with ThreadPoolExecutor(1) as pool:
            assert stats.select(["puffin"], pool) == ["puffin"]
    assert stats.frequency("puffin") is None
    with ThreadPoolExecutor(1) as pool:
        stats.select(["puffin"], pool)
    assert stats.frequency("puffin") == 0
