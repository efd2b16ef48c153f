"""What recall keeps from one recall to the next: its thread pools and its caches, in one
``RecallCaches`` that a runtime opens with its store and closes with it (``Runtime.caches``),
and that a recall reaches through its ``retrieval.Services`` and then its ``candidates.Query``.
A caller without a runtime (a test, a benchmark) shares ``DEFAULT``.

Every cache answers at once with what it holds and refreshes off the query's path, on the
pools here: the namespace's size, speakers and their memory lengths, and its full-text
statistics (``store.revalidating``, ``termstats``), its vocabulary held in memory
(``WordVectors``: `vocabulary`) and the standing instructions' condition embeddings
(``standing.ConditionVectors``).
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections import OrderedDict
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from hippograph.graph.recall.standing import ConditionVectors
from hippograph.graph.recall.termstats import Corpus, TermFrequencies, read_corpus
from hippograph.graph.store.revalidating import Lifetime, Revalidating
from hippograph.graph.store.store import Store

log = logging.getLogger(__name__)

# A held vocabulary is kept 100 times as long as its load took, within 30 s and 10 minutes.
HELD = Lifetime(cost_ratio=100.0, min_s=30.0, max_s=600.0)


class RecallCaches:
    """The pools and caches of the recalls over one runtime's store (see the module docstring);
    ``close`` shuts the pools down."""

    def __init__(self) -> None:
        # Reads of one recall that run beside the query embedding (full-text seeds, negative
        # rules), and the refreshes of the caches below that read little.
        self.pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="hippograph-recall")
        # Full-text counts run off the query's path on one thread, so they never hold up
        # recalls (`termstats`).
        self.counter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hippograph-termstats")
        # Loads of a namespace's vocabulary into memory (``words``).
        self.loader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hippograph-vocabulary")
        # Active memories per (store, namespace): it only scales tag rarity, log(n / degree) /
        # log(n), which moves by under 1% when n moves by 10% (n >= 1,000, degree <=
        # max_tag_degree), so a count somewhat old is as good as an exact one. Counting costs ~n
        # records read (100k memories: ~0.5 s of engine time), so a count is kept 1,000 times
        # as long as it took (a small namespace is recounted every few seconds, 100k every ~8
        # minutes), an expired one still used while a fresh one is counted off the query's path.
        self.sizes: Revalidating[tuple[Store, str], int] = Revalidating(
            _active_count, refresh=self.pool
        )
        # The namespace's speakers (the speaker cue): cached like its size, so a new speaker
        # counts as a cue within seconds (5 s for a read that takes ~1 ms), not on the very next
        # recall.
        self.speakers: Revalidating[tuple[Store, str], list[str]] = Revalidating(
            _speakers, refresh=self.pool
        )
        # Its speakers' mean memory lengths (which of them restate: rank.restating), cached the
        # same way.
        self.lengths: Revalidating[tuple[Store, str], dict[str, float]] = Revalidating(
            _lengths, refresh=self.pool
        )
        # Like the namespace's size for tag rarity: an average somewhat old moves scores little,
        # so it is recounted off the query's path, 1,000 times as long as counting took.
        self.corpus: Revalidating[tuple[Store, str], Corpus] = Revalidating(
            read_corpus, refresh=self.counter
        )
        self.conditions = ConditionVectors()  # the standing instructions' condition embeddings
        self.words = WordVectors(loader=self.loader)  # namespaces' vocabularies held in memory
        self._frequencies: weakref.WeakKeyDictionary[Store, TermFrequencies] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()

    def frequencies(self, store: Store) -> TermFrequencies:
        """The store's full-text frequencies, budgeted by its dialect."""
        with self._lock:
            stats = self._frequencies.get(store)
            if stats is None:
                stats = self._frequencies[store] = TermFrequencies(
                    store, store.dialect.fulltext_max_postings, corpus=self.corpus
                )
            return stats

    def close(self) -> None:
        """Shut the pools down: refreshes not started are dropped, running ones finish (they
        read the store, which closes next)."""
        for pool in (self.pool, self.counter, self.loader):
            pool.shutdown(wait=True, cancel_futures=True)


def _active_count(key: tuple[Store, str]) -> int:
    store, namespace = key
    return int(store.read("memory/count", namespace=namespace, statuses=["active"])[0]["count"])


def _speakers(key: tuple[Store, str]) -> list[str]:
    store, namespace = key
    return [r["name"] for r in store.read("recall/speakers", namespace=namespace)]


def _lengths(key: tuple[Store, str]) -> dict[str, float]:
    store, namespace = key
    return {
        r["name"]: float(r["length"])
        for r in store.read("recall/speaker_lengths", namespace=namespace)
    }


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
    """Namespaces' vocabularies held in memory for the nearest-word search (`vocabulary`).

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
        loader: Executor,
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


# For callers without a runtime (tests, benchmarks): a runtime recalls with its own.
DEFAULT = RecallCaches()
