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

The nearest words are found in a copy of the namespace's vocabulary held in memory (`WORDS`: an
exact product with every word's embedding, ~1 ms for 20,000 words, where the word index took
6-15 ms to answer on 2 cores), loaded off the query's path on the namespace's first recall and
reloaded when it expires; until it is loaded, and for a vocabulary too big to hold, the word
index answers.

The words the question holds itself are left to the full-text seeds; the words searched are cut
to the dialect's posting budget like the full-text seeds' (`termstats`), the weightiest first,
and to those whose memories can fill twice the hits wanted (a memory counts by its weightiest
word); a word whose frequency is not counted yet (a big namespace, counted off the query's path)
waits for its count.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Collection
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from hippograph.graph.recall import termstats
from hippograph.graph.recall.candidates import Hits, Query
from hippograph.graph.recall.recall_config import CascadeConfig
from hippograph.graph.store.revalidating import Lifetime
from hippograph.graph.store.store import Row, Store
from hippograph.graph.store.store import vector as as_vector
from hippograph.graph.text import fulltext

log = logging.getLogger(__name__)

LOADER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hippograph-vocabulary")
# A held vocabulary is kept 100 times as long as its load took, within 30 s and 10 minutes.
HELD = Lifetime(cost_ratio=100.0, min_s=30.0, max_s=600.0)


@dataclass(frozen=True)
class Held:
    """One namespace's vocabulary in memory: its words and their unit embeddings (one row per
    word), or ``matrix`` None for one too big to hold (the word index serves it)."""

    words: tuple[str, ...]
    matrix: np.ndarray | None
    expires: float

    def nearest(self, query: Any, k: int) -> dict[str, float]:
        """The ``k`` words nearest ``query`` (word -> cosine), nearest first."""
        if self.matrix is None or not self.words:
            return {}
        cosines = self.matrix @ np.asarray(query, dtype=np.float32)
        top = np.argpartition(-cosines, k - 1)[:k] if k < len(cosines) else np.arange(len(cosines))
        order = sorted(top.tolist(), key=lambda i: (-cosines[i], self.words[i]))
        return {self.words[i]: float(cosines[i]) for i in order}


class WordVectors:
    """Namespaces' vocabularies held in memory for the nearest-word search.

    ``get`` answers at once: what is held (None while nothing is), and starts a load on
    ``loader`` when nothing is held or what is held has expired. A load reads the vocabulary in
    pages of ``page`` words through the driver and is kept for its ``lifetime`` (``HELD``: 100
    times as long as the load took, within 30 s and 10 minutes): a word the `vocabulary` job
    adds (every few minutes) is searched from the next load on; an empty vocabulary is left to
    the index. A namespace of more than ``per_namespace`` words is held as too big (the index
    serves it); past
    ``max_words`` held in all, the least recently used namespaces are dropped (float32: 1.5 KB
    a word, so the default bound is ~380 MB)."""

    def __init__(
        self,
        *,
        loader: Executor = LOADER,
        max_words: int = 250_000,
        per_namespace: int = 100_000,
        page: int = 2_000,
        lifetime: Lifetime = HELD,
    ) -> None:
        self._loader = loader
        self._max_words, self._per_namespace, self._page = max_words, per_namespace, page
        self._lifetime = lifetime
        self._held: OrderedDict[tuple[Store, str], Held] = OrderedDict()
        self._loading: set[tuple[Store, str]] = set()
        self._lock = threading.Lock()

    def get(self, store: Store, ns: str) -> Held | None:
        key = (store, ns)
        with self._lock:
            held = self._held.get(key)
            if held is not None:
                self._held.move_to_end(key)
            due = (held is None or time.monotonic() >= held.expires) and key not in self._loading
            if due:
                self._loading.add(key)
        if due:
            self._loader.submit(self._load, key)
        return held

    def _load(self, key: tuple[Store, str]) -> None:
        store, ns = key
        started = time.monotonic()
        words: list[str] = []
        pages: list[np.ndarray] = []
        try:
            after = ""
            while len(words) <= self._per_namespace:
                rows = store.read("recall/vocabulary_page", namespace=ns, after=after,
                                  limit=self._page)  # fmt: skip
                if not rows or not rows[0]["words"]:
                    break
                words.extend(str(w) for w in rows[0]["words"])
                pages.append(np.asarray(rows[0]["embeddings"], dtype=np.float32))
                after = str(rows[0]["last"])
        except Exception:
            # Tried again after the lifetime's min_s, not on every recall; what was held serves.
            log.warning("loading the vocabulary of %r failed; tried again later", ns)
            with self._lock:
                before = self._held.get(key, Held((), None, 0.0))
                self._held[key] = Held(
                    before.words, before.matrix, time.monotonic() + self._lifetime.min_s
                )
                self._loading.discard(key)
            return
        matrix: np.ndarray | None = None
        if len(words) > self._per_namespace:
            words = []  # too big to hold: the index serves it
        elif pages:
            matrix = np.vstack(pages)
            matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
        now = time.monotonic()
        ttl = self._lifetime.of(now - started)
        with self._lock:
            self._held[key] = Held(tuple(words), matrix, now + ttl)
            self._held.move_to_end(key)
            self._loading.discard(key)
            total = sum(len(h.words) for h in self._held.values())
            while total > self._max_words and len(self._held) > 1:
                _, dropped = self._held.popitem(last=False)
                total -= len(dropped.words)


WORDS = WordVectors()


def rarity(df: int, size: int) -> float:
    """ln(1 + N / df) / ln(1 + N), in (0, 1]; 0 for a word no memory holds."""
    if df <= 0 or size <= 0:
        return 0.0
    n = max(size, df)
    return math.log(1 + n / df) / math.log(1 + n)


def near_words(store: Store, ns: str, query: Any, config: CascadeConfig) -> dict[str, float]:
    """The ``vocabulary_words`` words of ``ns`` nearest ``query`` (word -> cosine): from the
    copy held in memory (`WORDS`), else by the word index, or an exact scan of the namespace's
    words where the shared index leaves fewer."""
    k = config.gather.vocabulary_words
    held = WORDS.get(store, ns)
    if held is not None and held.words:
        return held.nearest(query, k)
    params = {"namespace": ns, "embedding": as_vector(query), "k": k}
    rows = store.read(
        "recall/vocabulary_words",
        candidates=max(k * store.dialect.vector_oversample, 100),
        **params,
    )
    if len(rows) < k:
        rows = store.read("recall/vocabulary_words_exact", **params)
    return {str(r["word"]): float(r["cosine"]) for r in rows}


def weights(
    store: Store, ns: str, near: dict[str, float], asked: Collection[str], config: CascadeConfig
) -> dict[str, float]:
    """The words to search (word -> weight, weightiest first): those over the floor that the
    question does not hold (``asked``), with a counted frequency, within the posting budget."""
    floor = config.gather.vocabulary_floor
    candidates = [w for w, c in near.items() if c > floor and w not in asked]
    if not candidates:
        return {}
    stats = termstats.for_store(store)
    df = stats.counted(ns, candidates, termstats.COUNTER)
    size = termstats.CORPUS.get((store, ns)).size
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
    chosen = weights(store, ns, near_words(store, ns, query, config), asked, config)
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
