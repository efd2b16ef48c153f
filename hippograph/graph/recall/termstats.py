"""Document frequencies of full-text query words, so that a query's cost stays bounded.

ArcadeDB's full-text index scores every posting of every word it is asked for (about 1 us a
posting), however few hits are wanted: at 100,000 memories a word found in most of them costs
~100 ms. Its dialect therefore sets a posting budget (`Dialect.fulltext_max_postings`): a query
keeps its rarest words while their document frequencies add up to at most the budget. A
frequent word carries little BM25 weight (its idf is about log(n / df)), so this is the cut-off
frequency Lucene users set by hand, applied by cost instead. Neo4j's Lucene index skips
postings that cannot reach the top hits, so its dialect sets no budget and nothing is counted.

A word's frequency is counted once, off the query's path, and reused for TERM_TTL_S seconds;
until it is known, the word is kept (its cost is paid once). The index is shared by every
namespace, so frequencies are the index's, not a namespace's: they steer cost, never results'
visibility.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor

from hippograph.graph.store.store import Store

log = logging.getLogger(__name__)

TERM_TTL_S = 600.0
MAX_TERMS = 100_000


def select_terms(words: Sequence[str], frequencies: Mapping[str, int], budget: int) -> list[str]:
    """The words a query keeps under ``budget`` postings, in their original order: words of
    unknown frequency, then the known ones rarest first while the total stays within budget."""
    kept = {w for w in words if w not in frequencies}
    spent = 0
    for word in sorted((w for w in words if w in frequencies), key=lambda w: frequencies[w]):
        if spent + frequencies[word] > budget:
            break
        kept.add(word)
        spent += frequencies[word]
    return [w for w in words if w in kept]


class TermFrequencies:
    """Cached document frequencies of one store's full-text index (thread-safe)."""

    def __init__(self, store: Store, budget: int, *, ttl: float = TERM_TTL_S) -> None:
        self._store = store
        self.budget = budget
        self._ttl = ttl
        self._known: dict[str, tuple[float, int]] = {}
        self._counting: set[str] = set()
        self._lock = threading.Lock()

    def select(self, words: Sequence[str], counter: Executor) -> list[str]:
        """``words`` cut to the budget by the frequencies known now; the unknown or expired
        ones are counted on ``counter`` for later queries."""
        now = time.monotonic()
        known: dict[str, int] = {}
        wanted: list[str] = []
        with self._lock:
            for word in words:
                cached = self._known.get(word)
                if cached is not None:
                    known[word] = cached[1]  # an expired count still steers until recounted
                if (cached is None or now - cached[0] >= self._ttl) and word not in self._counting:
                    self._counting.add(word)
                    wanted.append(word)
        if wanted:
            counter.submit(self._count, wanted)
        return select_terms(words, known, self.budget)

    def count(self, words: Sequence[str]) -> dict[str, int]:
        """Count ``words`` now (capped at budget + 1: beyond it only "too many" matters)."""
        with self._lock:
            self._counting.update(words)
        self._count(words)
        with self._lock:
            return {w: self._known[w][1] for w in words if w in self._known}

    def frequency(self, word: str) -> int | None:
        """The cached frequency of ``word`` (expired or not), None if never counted."""
        with self._lock:
            cached = self._known.get(word)
        return None if cached is None else cached[1]

    def _count(self, words: Sequence[str]) -> None:
        try:
            for word in words:
                rows = self._store.read("recall/term_frequency", term=word, cap=self.budget + 1)
                with self._lock:
                    if len(self._known) >= MAX_TERMS:
                        self._known.clear()
                    self._known[word] = (time.monotonic(), int(rows[0]["df"]) if rows else 0)
        except Exception:
            log.warning("counting full-text word frequencies failed; later queries retry")
        finally:
            with self._lock:
                self._counting.difference_update(words)


_BY_STORE: weakref.WeakKeyDictionary[Store, TermFrequencies] = weakref.WeakKeyDictionary()
_BY_STORE_LOCK = threading.Lock()


def for_store(store: Store) -> TermFrequencies | None:
    """The store's frequency cache, or None when its backend needs no posting budget."""
    budget = store.dialect.fulltext_max_postings
    if budget is None:
        return None
    with _BY_STORE_LOCK:
        stats = _BY_STORE.get(store)
        if stats is None:
            stats = _BY_STORE[store] = TermFrequencies(store, budget)
        return stats
