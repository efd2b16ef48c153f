"""The vocabulary seeds: memories holding a word of the namespace near the question that the
question does not say.

The evidence a multi-hop or information-extraction question needs often shares neither a word
nor much embedding similarity with it ("What art does Melanie make?" against "I finished
another pottery bowl"): the vector seeds miss it (the turn is about more than the bowl) and the
full-text seeds too (no shared word). A single word embeds close to a related one (art ->
pottery, painting), so the namespace's vocabulary (`graph.vocabulary`: each distinct word of its
memories, embedded once) is searched for the words nearest the question, and the memories
holding them seed.

A word's weight is ``(cosine(word, question) - floor) x rarity``, rarity ``ln(1 + N / df) /
ln(1 + N)`` (N the namespace's active memories, df those holding the word: 1 for a word one
memory holds, toward 0 for one every memory holds): a near word most memories hold says little.
A memory's weight is its weightiest word in its content (``context_weight`` times that of a word
it is indexed by only through its context). The ``vocabulary_seeds`` weightiest memories that
neither the vector search (its hits below the seeds' floor too), the full-text search nor the
speaker scan found join the seeds: what only the vocabulary finds. Their weight does not enter
the ranking: added to the score (weight 1), it lifted one BEAM information-extraction question
(73.3 -> 78.3) and cost LoCoMo multi-hop 3.4 points (55.4 -> 52.0), the memories it lifted
pushing evidence out of the top 10.

The nearest words are found in a copy of the namespace's vocabulary held in memory
(`caches.WordVectors`: an exact product with every word's embedding, ~1 ms for 20,000 words,
where the word index took 6-15 ms to answer on 2 cores), loaded off the query's path on the
namespace's first recall and reloaded when it expires; until it is loaded, and for a
vocabulary too big to hold, the word index answers.

The words the question holds itself are left to the full-text seeds; the words searched are cut
to the dialect's posting budget like the full-text seeds' (`termstats`), the weightiest first,
and to those whose memories can fill twice the hits wanted (a memory counts by its weightiest
word); a word whose frequency is not counted yet (a big namespace, counted off the query's path)
waits for its count.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

from hippograph.graph.recall.caches import WordVectors
from hippograph.graph.recall.candidates import Hits, Query
from hippograph.graph.recall.recall_config import CascadeConfig
from hippograph.graph.store import nearest
from hippograph.graph.store.store import Row, Store
from hippograph.graph.store.store import vector as as_vector
from hippograph.graph.text import fulltext


def rarity(df: int, size: int) -> float:
    """ln(1 + N / df) / ln(1 + N), in (0, 1]; 0 for a word no memory holds."""
    if df <= 0 or size <= 0:
        return 0.0
    n = max(size, df)
    return math.log(1 + n / df) / math.log(1 + n)


def near_words(
    store: Store, ns: str, query: Any, config: CascadeConfig, words: WordVectors
) -> dict[str, float]:
    """The ``vocabulary_words`` words of ``ns`` nearest ``query`` (word -> cosine): from the
    copy held in memory (``words``), else by the word index, or an exact scan of the
    namespace's words where the shared index leaves fewer."""
    k = config.gather.vocabulary_words
    held = words.get(store, ns)
    if held is not None and held.words:
        return held.nearest(query, k)
    rows = nearest.nearest(
        store, "recall/vocabulary_words", "recall/vocabulary_words_exact", k, floor=100,
        namespace=ns, embedding=as_vector(query),
    )  # fmt: skip
    return {str(r["word"]): float(r["cosine"]) for r in rows}


def weights(q: Query, near: dict[str, float], asked: Collection[str]) -> dict[str, float]:
    """The words to search (word -> weight, weightiest first): those over the floor that the
    question does not hold (``asked``), with a counted frequency (``q.caches``' full-text
    statistics), within the posting budget."""
    ns, config, caches = q.namespace, q.config, q.caches
    floor = config.gather.vocabulary_floor
    candidates = [w for w, c in near.items() if c > floor and w not in asked]
    if not candidates:
        return {}
    stats = caches.frequencies(q.store)
    df = stats.counted(ns, candidates, caches.counter)
    size = caches.corpus.get((q.store, ns)).size
    weighed = {w: (near[w] - floor) * rarity(df[w], size) for w in candidates if df.get(w, 0) > 0}
    chosen: dict[str, float] = {}
    spent = reached = 0
    # Enough words for twice the memories wanted: a memory counts by its weightiest word, so
    # the lighter words only matter where the heavier ones hold too few memories.
    wanted = 2 * (config.gather.vocabulary_seeds + _spare(config))
    for word in sorted(weighed, key=lambda w: (-weighed[w], w)):
        if reached >= wanted:
            break
        if stats.budget is not None and spent + df[word] > stats.budget:
            continue
        chosen[word] = weighed[word]
        spent += df[word]
        reached += min(df[word], config.gather.vocabulary_per_word)
    return chosen


def vocabulary_hits(q: Query, query: Any, asked: Collection[str], exclude: Collection[str]) -> Hits:
    """Memories holding a vocabulary word near ``query`` (id -> weight, weightiest first; at
    most ``vocabulary_seeds`` plus the vector and speaker hits, which the caller passes over:
    it runs beside the vector search), which of them are not active, and their element ids.
    ``asked``: the question's own words (the full-text seeds search those); ``exclude``: ids
    found already (the full-text hits)."""
    store, ns, config = q.store, q.namespace, q.config
    if config.gather.vocabulary_seeds <= 0:
        return Hits({}, set(), {})
    chosen = weights(q, near_words(store, ns, query, config, q.caches.words), asked)
    if not chosen:
        return Hits({}, set(), {})
    rows: list[Row] = store.read(
        "recall/vocabulary_seeds",
        namespace=ns,
        words=[
            {"word": w, "term": fulltext.term(ns, w), "weight": weight}
            for w, weight in chosen.items()
        ],
        per_word=config.gather.vocabulary_per_word,
        limit=config.gather.vocabulary_seeds + _spare(config),
        statuses=q.seed_statuses,
        exclude=list(exclude),
        **q.scope,
    )
    found: dict[str, float] = {}
    for row in rows:
        own = set(fulltext.tokens(str(row["content"] or "")))
        best = max(
            chosen[w] * (1.0 if w in own else config.gather.context_weight)
            for w in row["words"]
            if w in chosen
        )
        if best > 0:
            found[row["id"]] = best
    ranked = dict(sorted(found.items(), key=lambda kv: (-kv[1], kv[0])))
    retired = {r["id"] for r in rows if r["status"] != "active" and r["id"] in ranked}
    return Hits(ranked, retired, {r["id"]: r["eid"] for r in rows if r["id"] in ranked})


def _spare(config: CascadeConfig) -> int:
    """Hits fetched beyond the seeds: the vector and speaker hits the caller passes over."""
    return max(config.gather.vector_seeds, config.gather.prf_depth) + config.gather.speaker_seeds
