"""Full-text statistics per namespace: word frequencies counted on the real index within one
namespace, words cut by them, hits scored by BM25 over them; another namespace changes none."""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor

import pytest

from hippograph.graph import memories
from hippograph.graph.model import NewMemory
from hippograph.graph.recall import retrieval, seeds, termstats
from hippograph.graph.recall.caches import DEFAULT
from hippograph.graph.recall.candidates import Hits
from hippograph.graph.recall.recall_config import CascadeConfig
from hippograph.graph.recall.recipes import DEFAULT_CASCADE
from hippograph.graph.runtime import Runtime
from hippograph.graph.text import fulltext
from hippograph.graph.write import writepath
from tests.conftest import wipe


def test_rarest_words_are_kept_within_the_budget_in_query_order() -> None:
    frequencies = {"likes": 10_000, "ana": 5_000, "garden": 6_000, "oboe": 3}
    words = ["ana", "likes", "garden", "oboe", "unheard"]
    # unknown words stay; then oboe (3) + ana (5,000) fit 10,000, garden would not
    assert termstats.select_terms(words, frequencies, 10_000) == ["ana", "oboe", "unheard"]
    assert termstats.select_terms(words, frequencies, 2) == ["unheard"]
    assert termstats.select_terms(["likes"], frequencies, 10_000) == ["likes"]
    assert termstats.select_terms(["likes"], frequencies, 9_999) == []


@pytest.fixture
def other_namespace(any_runtime: Runtime) -> Iterator[str]:
    ns = f"test-{uuid.uuid4().hex[:12]}"
    yield ns
    wipe(any_runtime.store, ns)


def test_bm25_of_a_document_by_hand() -> None:
    corpus = termstats.Corpus(size=10, avg_length=40.0)
    # one word, tf 2, df 3, a document twice the average length
    idf = math.log(1 + (10 - 3 + 0.5) / (3 + 0.5))
    expected = idf * 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 2))
    assert termstats.bm25({"kea": 2}, 80, {"kea": 3}, corpus) == pytest.approx(expected)
    # a word in every document still counts a little; a document without the words, nothing
    assert 0 < termstats.bm25({"kea": 1}, 40, {"kea": 10}, corpus) < 0.1
    assert termstats.bm25({}, 40, {"kea": 3}, corpus) == 0


def test_tokens_are_the_ones_the_index_matches(any_runtime: Runtime, namespace: str) -> None:
    """The tokens that count tf are the ones the index matches, keyed by namespace."""
    texts = [
        "Don't e-mail the U.S office about quokka_bar before 3.14 or 1,000 birds",
        "TAKAHE takahe, Takahe! kea.",
    ]
    remember(any_runtime, namespace, *texts)
    words = ["mail", "office", "quokka", "bar", "14", "000", "takahe", "kea", "birds"]
    for word in words:
        rows = any_runtime.store.read(
            "recall/fulltext_seeds",
            namespace=namespace,
            query=fulltext.query(namespace, [word]),
            statuses=["active"],
            candidates=10,
            scopes=["global"],
            as_of=None,
        )
        matched = {h["content"] for h in rows[0]["hits"]}
        counted = {t for t in texts if termstats.term_counts(t, {word})}
        assert matched == counted, word
        assert matched, word
    assert termstats.term_counts(texts[1], {"takahe", "kea"}) == {"takahe": 3, "kea": 1}
    # stop words ("don", "the") and single characters are neither indexed nor asked for
    assert not {"don", "the", "e"} & set(fulltext.words(texts[0]))


def test_the_index_hands_over_only_the_namespace_postings(
    any_runtime: Runtime, namespace: str, other_namespace: str
) -> None:
    """Another tenant's volume of a word never reaches this namespace's query: with room for
    one candidate, the index's one candidate is this namespace's memory, however many the
    other namespace holds (the cut used to follow the whole index's order)."""
    remember(any_runtime, other_namespace, *[f"Numbat numbat numbat, note {i}" for i in range(30)])
    remember(any_runtime, namespace, "We saw one numbat at dusk")
    rows = any_runtime.store.read(
        "recall/fulltext_seeds",
        namespace=namespace,
        query=fulltext.query(namespace, ["numbat"]),
        statuses=["active"],
        candidates=1,
        scopes=["global"],
        as_of=None,
    )
    assert rows[0]["fetched"] == 1
    assert [h["content"] for h in rows[0]["hits"]] == ["We saw one numbat at dusk"]
    assert fulltext.namespace_key(namespace) != fulltext.namespace_key(other_namespace)


# Four reports holding "kestrel", one of them "heron" too.
KESTRELS = [
    *[f"Kestrel report {i}: the {p} was quiet" for i, p in enumerate(["dam", "moor", "pier"])],
    "Kestrel report 9: a heron fished the canal",
]


def budgeted(
    monkeypatch: pytest.MonkeyPatch, rt: Runtime, budget: int | None
) -> termstats.TermFrequencies:
    """Frequencies with ``budget``, the ones recall uses on ``rt``'s store for the test (a
    recall without a runtime's services uses the default caches)."""
    stats = termstats.TermFrequencies(rt.store, budget=budget, corpus=DEFAULT.corpus)
    monkeypatch.setattr(DEFAULT, "frequencies", lambda store: stats)
    return stats


def fulltext_hits(rt: Runtime, ns: str, text: str, config: CascadeConfig) -> Hits:
    """The full-text hits for ``text`` among the active memories of ``ns``, as a recall with
    the default caches finds them."""
    request = retrieval.RecallRequest(context=text)
    q = retrieval.prepare(rt.store, ns, request, config, retrieval.Services())
    return seeds.fulltext_hits(q, text, ["active"])


def remember(rt: Runtime, ns: str, *texts: str) -> None:
    items = [NewMemory(content=t) for t in texts]
    writepath.remember(rt.store, rt.embedder, ns, items, policy=rt.policy)


def test_frequencies_are_counted_in_the_namespace_on_the_index_and_capped(
    any_runtime: Runtime, namespace: str, other_namespace: str
) -> None:
    remember(
        any_runtime,
        namespace,
        *[f"Quokka sighting number {i} near the {p}" for i, p in enumerate("abcdef")],
        "A single wombat crossed the road",
    )
    remember(any_runtime, other_namespace, "A wombat and a quokka", "Another wombat burrow")
    stats = termstats.TermFrequencies(any_runtime.store, budget=3, corpus=DEFAULT.corpus)
    counted = stats.count(namespace, ["quokka", "wombat", "xylograph"])
    assert counted == {"quokka": 4, "wombat": 1, "xylograph": 0}  # quokka: capped at budget + 1
    assert stats.count(other_namespace, ["quokka", "wombat"]) == {"quokka": 1, "wombat": 2}
    with ThreadPoolExecutor(1) as pool:
        assert stats.select(namespace, ["quokka", "wombat"], pool) == ["wombat"]
        # 1 + 2 postings fit the budget there
        assert stats.select(other_namespace, ["quokka", "wombat"], pool) == ["quokka", "wombat"]
        # an unknown word is kept now and counted for the next query
        assert stats.frequency(namespace, "zorilla") is None
        assert stats.select(namespace, ["zorilla"], pool) == ["zorilla"]
    assert stats.frequency(namespace, "zorilla") == 0
    unbudgeted = termstats.TermFrequencies(any_runtime.store, budget=None, corpus=DEFAULT.corpus)
    assert unbudgeted.count(namespace, ["quokka"]) == {"quokka": 6}


def test_recall_leaves_out_words_over_the_budget(
    runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A word the index matches too often costs more than it tells: the query drops it, and
    full-text seeds come from the rarer words only."""
    remember(runtime, namespace, *KESTRELS)
    stats = budgeted(monkeypatch, runtime, 2)
    stats.count(namespace, ["kestrel", "report", "heron", "canal"])
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


def test_words_over_the_budget_still_score_what_the_rarer_words_find(
    runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index is not asked for a word over the budget, but the hits the rarer words find
    are scored by it too: of two hits of the rare word, the one that also holds the frequent
    word scores higher, and a memory holding only the frequent word is not fetched."""
    texts = [*KESTRELS, "A heron stood by the lock gates"]
    written = writepath.remember(
        runtime.store, runtime.embedder, namespace, [NewMemory(content=t) for t in texts],
        policy=runtime.policy,
    )  # fmt: skip
    content = {r.memory.id: r.memory.content for r in written}
    stats = budgeted(monkeypatch, runtime, 2)
    stats.count(namespace, ["kestrel", "heron"])
    scores, _, _ = fulltext_hits(runtime, namespace, "kestrel heron", DEFAULT_CASCADE)
    by_content = {content[i]: score for i, score in scores.items()}
    assert set(by_content) == {texts[3], texts[4]}  # heron's holders; kestrel is over budget
    assert by_content[texts[3]] > by_content[texts[4]]  # ... and scores the one holding it


def test_a_failed_count_is_retried_by_a_later_query(runtime: Runtime, namespace: str) -> None:
    stats = termstats.TermFrequencies(runtime.store, budget=10, corpus=DEFAULT.corpus)

    def failing(name: str, /, **params: object) -> list[dict[str, object]]:
        raise RuntimeError("engine away")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runtime.store, "read", failing)
        with ThreadPoolExecutor(1) as pool:
            assert stats.select(namespace, ["puffin"], pool) == ["puffin"]
    assert stats.frequency(namespace, "puffin") is None
    with ThreadPoolExecutor(1) as pool:
        stats.select(namespace, ["puffin"], pool)
    assert stats.frequency(namespace, "puffin") == 0


def test_another_namespace_changes_neither_a_score_nor_a_kept_word(
    any_runtime: Runtime, namespace: str, other_namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hundreds of another tenant's memories holding a word: this namespace's full-text scores,
    its recall's order and whether it keeps the word stay as they were (before, another
    tenant's 200 memories moved a score from 5.13 to 1.24, and its volume over the posting
    budget dropped the word from every namespace's query)."""
    remember(
        any_runtime,
        namespace,
        "The kestrel hovered over the motorway verge",
        "A heron stood in the canal at dawn",
        "Kestrel and heron seen from the same bridge",
        "Bought a new bicycle bell",
    )
    stats = budgeted(monkeypatch, any_runtime, 100)
    request = retrieval.RecallRequest(context="kestrel heron", explain=True)

    def observed() -> tuple[dict[str, float], list[tuple[str, float]]]:
        hits, _, _ = fulltext_hits(any_runtime, namespace, "kestrel heron", DEFAULT_CASCADE)
        result = retrieval.recall(
            any_runtime.store, any_runtime.embedder, namespace, request, DEFAULT_CASCADE
        )
        ranked = [
            (i.memory.content, i.explanation.fulltext if i.explanation else -1.0)
            for i in result.items
        ]
        return hits, ranked

    assert stats.count(namespace, ["kestrel", "heron"]) == {"kestrel": 2, "heron": 2}
    hits_before, ranked_before = observed()
    assert len(hits_before) == 3 and all(s > 0 for s in hits_before.values())

    remember(
        any_runtime,
        other_namespace,
        *[f"Kestrel count {i}: one kestrel over field {i % 7}" for i in range(200)],
    )
    # the other namespace is far over the budget; this one's count, and so its words, unmoved
    assert stats.count(other_namespace, ["kestrel"]) == {"kestrel": 101}
    assert stats.count(namespace, ["kestrel", "heron"]) == {"kestrel": 2, "heron": 2}
    with ThreadPoolExecutor(1) as pool:
        assert stats.select(namespace, ["kestrel", "heron"], pool) == ["kestrel", "heron"]
        assert stats.select(other_namespace, ["kestrel", "heron"], pool) == ["heron"]
    hits_after, ranked_after = observed()
    assert hits_after == pytest.approx(hits_before, rel=1e-12)
    assert list(hits_after) == list(hits_before)  # the same order
    assert [c for c, _ in ranked_after] == [c for c, _ in ranked_before]
    assert dict(ranked_after) == pytest.approx(dict(ranked_before), rel=1e-12)


def test_the_forms_of_a_word_score_as_that_one_word() -> None:
    """Counts of "camping" and "camped" add up under "camped", and so do their frequencies."""
    corpus = termstats.Corpus(size=10, avg_length=40.0)
    groups = {"camped": "camped", "camp": "camped", "camping": "camped"}
    tf = termstats._grouped(termstats.term_counts("Camping, then camped again", groups), groups)
    assert tf == {"camped": 2}
    assert termstats.bm25(tf, 40, {"camped": 3}, corpus) == pytest.approx(
        termstats.bm25({"camp": 2}, 40, {"camp": 3}, corpus)
    )


def test_a_query_finds_the_other_forms_of_its_words(any_runtime: Runtime, namespace: str) -> None:
    """ "Where has she camped?" finds "camping" and "camps" on the full-text side, scored as the
    one word "camped" (a turn with two forms of it above a turn with one); a word sharing
    only a prefix ("campaign") is not a form of it."""
    remember(
        any_runtime,
        namespace,
        "We went camping at the beach with the kids",
        "Camping again: the camps by the lake are the best",
        "The campaign for the library is going well",
        "Bought a new bicycle bell",
    )
    hits, _, _ = fulltext_hits(any_runtime, namespace, "Where has she camped?", DEFAULT_CASCADE)
    found = {
        m.content: hits[m.id] for m in memories.get_many(any_runtime.store, namespace, list(hits))
    }
    assert set(found) == {
        "We went camping at the beach with the kids",
        "Camping again: the camps by the lake are the best",
    }
    assert (
        found["Camping again: the camps by the lake are the best"]
        > found["We went camping at the beach with the kids"]
        > 0
    )


def test_a_word_frequent_in_the_asked_form_is_not_widened(
    any_runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once counted, a word the namespace holds forms_below times or more in the asked form
    searches that form only; a rarer one searches its other forms too."""
    often = [
        f"Camping trip number {i} by the lake" for i in range(DEFAULT_CASCADE.gather.forms_below)
    ]
    remember(any_runtime, namespace, *often, "We camped on the ridge", "The kayak flipped")
    stats = budgeted(monkeypatch, any_runtime, None)

    def found(text: str) -> set[str]:
        hits, _, _ = fulltext_hits(any_runtime, namespace, text, DEFAULT_CASCADE)
        return {m.content for m in memories.get_many(any_runtime.store, namespace, list(hits))}

    assert stats.count(namespace, ["camping", "camped"]) == {"camping": 5, "camped": 1}
    assert found("camping") == set(often)
    assert found("camped") == {*often, "We camped on the ridge"}


def test_a_query_finds_the_same_on_its_first_ask_as_on_later_ones(
    any_runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its words are counted before they steer it: "camped", held often in that form, is not
    widened to "camping" on the first ask either (counted in the background, the first ask
    widened it, found the camping memory and scored by other frequencies than the second)."""
    remember(
        any_runtime,
        namespace,
        *[f"We camped by lake {name} for a night" for name in ["Alder", "Birch", "Cedar"]],
        *[f"They camped at {p} before the storm" for p in ["the pass", "the ridge"]],
        "Camping gear is in the blue shed",
    )
    stats = budgeted(monkeypatch, any_runtime, 100)

    def ask() -> dict[str, float]:
        hits, _, _ = fulltext_hits(any_runtime, namespace, "where we camped", DEFAULT_CASCADE)
        return hits

    assert stats.frequency(namespace, "camped") is None
    first = ask()
    assert stats.frequency(namespace, "camped") == 5  # counted on the first ask's path
    assert ask() == pytest.approx(first, rel=1e-12)
    assert len(first) == 5  # the five camped memories; the camping one only through a form
    wide = fulltext_hits(any_runtime, namespace, "gear camped", DEFAULT_CASCADE)[0]
    assert len(wide) == 6  # a rare word ("gear") is still widened, a frequent one is not


def test_the_oldest_counts_are_dropped_first(
    runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(termstats, "MAX_TERMS", 3)
    stats = termstats.TermFrequencies(runtime.store, budget=10, corpus=DEFAULT.corpus)
    stats.count(namespace, ["auk", "bittern"])
    stats.count(namespace, ["curlew", "auk"])  # auk counted again: now the newest
    stats.count(namespace, ["dunlin"])
    assert stats.frequencies(namespace, ["auk", "bittern", "curlew", "dunlin"]) == {
        "auk": 0,
        "curlew": 0,
        "dunlin": 0,
    }


class Deferred(Executor):
    """Runs what it is given only when asked (`run`), to see what a query left for later."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Callable[..., object], tuple[object, ...], dict[str, object]]] = []

    def submit(
        self, fn: Callable[..., object], /, *args: object, **kwargs: object
    ) -> Future[object]:
        self.jobs.append((fn, args, kwargs))
        return Future()

    def run(self) -> None:
        while self.jobs:
            fn, args, kwargs = self.jobs.pop(0)
            fn(*args, **kwargs)


def test_a_big_namespace_counts_new_words_off_the_query_path(
    runtime: Runtime, namespace: str
) -> None:
    """Counting reads every posting of a word (580 ms for a new query's words at p50 in a
    100,000-memory namespace): beyond on_path_max active memories a new word is kept and
    counted later, a small namespace counts it at once."""
    remember(runtime, namespace, "A grebe dived twice", "The grebe surfaced by the reeds")
    later = Deferred()
    big = termstats.TermFrequencies(runtime.store, budget=10, on_path_max=1, corpus=DEFAULT.corpus)
    assert big.counted(namespace, ["grebe", "reeds"], later) == {}
    assert big.select(namespace, ["grebe"], later) == ["grebe"]  # kept while unknown
    later.run()
    assert big.counted(namespace, ["grebe", "reeds"], later) == {"grebe": 2, "reeds": 1}
    assert not later.jobs  # counted once
    small = termstats.TermFrequencies(
        runtime.store, budget=10, on_path_max=2, corpus=DEFAULT.corpus
    )
    assert small.counted(namespace, ["grebe", "reeds"], later) == {"grebe": 2, "reeds": 1}
    assert not later.jobs


def test_a_big_namespace_estimates_new_words_from_a_sample(
    runtime: Runtime, namespace: str
) -> None:
    """Before its count arrives, a new word the namespace's sample holds too often is left out
    of the search, not counted, and scored as over the budget; a rare one stays unknown."""
    remember(runtime, namespace, *[f"Grebe count {i}: the grebe dived" for i in range(12)])
    remember(runtime, namespace, "A heron stood by the grebe nest")
    later = Deferred()
    big = termstats.TermFrequencies(runtime.store, budget=4, on_path_max=1, corpus=DEFAULT.corpus)
    assert big.select(namespace, ["grebe", "heron"], later) == ["grebe", "heron"]  # no sample yet
    assert [fn.__name__ for fn, _, _ in later.jobs] == ["sample", "_count"]  # sampled off the path
    later.jobs.clear()
    sample = big.sample(namespace)
    assert sample is not None and sample.size == 13  # every memory: 500 or fewer
    assert sample.estimate(fulltext.term(namespace, "grebe")) == 13
    fresh = termstats.TermFrequencies(runtime.store, budget=4, on_path_max=1, corpus=DEFAULT.corpus)
    fresh.sample(namespace)
    assert fresh.select(namespace, ["grebe", "heron"], later) == ["heron"]
    assert fresh.frequencies(namespace, ["grebe", "heron"]) == {"grebe": 5}  # budget + 1
    # grebe (13 > 2 x 4) is not counted: only heron is left for later
    assert [args for _, args, _ in later.jobs] == [(namespace, ["heron"])]
    later.run()
    assert fresh.frequencies(namespace, ["grebe", "heron"]) == {"grebe": 5, "heron": 1}


def test_words_past_the_df_share_weigh_alike(any_runtime: Runtime, namespace: str) -> None:
    """Past CascadeConfig.gather.df_share of the namespace a word's frequency no longer lowers its
    weight: a name in 8 of 10 memories and a topic in 6 count the same there, and more than
    plain BM25 gives them (where the more frequent name counts less)."""
    remember(
        any_runtime,
        namespace,
        *[f"Melanie made pottery number {i}" for i in range(5)],
        "Melanie hiked at dawn",
        "Melanie sang a song",
        "Melanie read a book",
        "Pottery hiked at dawn",
        "The kayak flipped over",
    )

    def scores(config: CascadeConfig) -> dict[str, float]:
        hits, _, _ = fulltext_hits(any_runtime, namespace, "Melanie pottery", config)
        found = memories.get_many(any_runtime.store, namespace, list(hits))
        return {m.content: hits[m.id] for m in found}

    plain = scores(DEFAULT_CASCADE.changed(df_share=1.0))
    shared = scores(DEFAULT_CASCADE.changed(df_share=0.2))
    name, topic = "Melanie hiked at dawn", "Pottery hiked at dawn"
    assert 0 < plain[name] < plain[topic]
    assert shared[name] == pytest.approx(shared[topic])
    assert shared[name] > plain[name] and shared[topic] > plain[topic]
