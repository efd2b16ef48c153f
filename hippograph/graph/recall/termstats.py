"""Full-text statistics of one namespace, and the BM25 scores and word budget drawn from them.

The full-text index holds each memory's words keyed by its namespace (`text.fulltext`), so a
query is handed this namespace's postings only, and a word's postings are its document
frequency in the namespace. The index's own scores still use the whole index's N and average
length, so it only finds candidates, and `TermFrequencies.score` scores its hits again with
BM25 (k1 = 1.2, b = 0.75) over the namespace's own statistics: N its active memories, avgdl
their average length, df per word the active memories of the namespace holding it (at most
`CascadeConfig.gather.df_share` of N, so that a word running through the namespace keeps a
weight). One tenant's data never changes another's candidates, scores or cost (another tenant
writing 200 memories with a word once moved one memory's score from 5.13 to 1.24, and 10,200
of them made a fresh namespace drop the word).

Posting budget: ArcadeDB's index scores every posting of every word it is asked for (about
1 us a posting), however few hits are wanted, so its dialect sets a budget
(`Dialect.fulltext_max_postings`): a query searches its rarest words while their document
frequencies add up to at most the budget (a frequent word carries little weight: its idf is
about log(N / df)), and scores what they find by every word, the frequent ones included
(Lucene's common-terms query, its cut-off applied by cost). A word over the budget is counted
only up to budget + 1, so it scores as held by that many memories: its weight is at most that.
Neo4j's Lucene index skips postings that cannot rank, so its dialect sets no budget;
frequencies are still counted, for the scores.

A word's frequency is counted per (namespace, word) the first time a query holds it, on the
query's path (all its new words in one statement), so that the first ask of a query keeps,
widens and scores its words as every later ask does: counted in the background instead, the
same question found other memories on its first ask than on its second (a turn's full-text
score 4.5, then 1.8), and a benchmark moved by tenths from run to run. That holds in a
namespace of at most ON_PATH_MAX active memories: a count reads every posting of the word in
the namespace (ArcadeDB loads each node to check it, ~15-30 us a posting on a busy machine; in
the 100,000-memory latency store a new query's words took 580 ms at p50 to count), so a bigger
namespace counts new words in the background as before, keeps them meanwhile, and its first
ask of a word may differ from later ones. A count is reused for TERM_TTL_S seconds, then
recounted off the query's path on a thread of its own (`caches.RecallCaches.counter`) while
the old one still steers; at most MAX_TERMS are kept, the oldest dropped first. A word not
counted yet is kept, and scored by the active hits that contain it (exact when the index
handed over every hit of the namespace, as it does unless the words match more of its
memories than `CascadeConfig.gather.fulltext_max_candidates`).

Until its count arrives, a big namespace's new word is estimated from a sample: about
SAMPLE_SIZE of its active memories drawn at random (`Sample`, taken off the query's path the
first time a query there holds a word not counted, and again after TERM_TTL_S). A word the
sample puts over the budget is treated as counted at budget + 1: left out of the index's
search, not widened to its forms, and scored as that frequent. Kept as unknown, the first query
holding a word that runs through the namespace had the index read all its postings: "note",
held by every memory of a 100,000-memory store, took 238-341 ms on its first ask and ~30 ms
once counted. A word the sample holds rarely stays unknown and is searched as before: the
sample leaves out only what it sees often (a word held by 1% of the namespace is put over a
2,000 budget at 100,000 memories about once in 70 samples; on a query's first ask only).

Tokens (`term_counts`) are the index's by construction: `text.fulltext.tokens`, runs of ASCII
letters and digits, lower case. Lengths are in characters on both sides of dl / avgdl (the
namespace's average is one aggregate in the engine), which BM25 only uses as a ratio.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass

from hippograph.graph.recall.recall_config import GatherConfig
from hippograph.graph.store.revalidating import Revalidating
from hippograph.graph.store.store import Row, Store
from hippograph.graph.text import fulltext

log = logging.getLogger(__name__)

TERM_TTL_S = 600.0
# Namespaces up to this many active memories count a query's new words on its path.
ON_PATH_MAX = 2_000
MAX_TERMS = 100_000
# Active memories a big namespace's sample draws (see the module docstring).
SAMPLE_SIZE = 500
K1 = 1.2
B = 0.75
# Counted without a budget (Neo4j): a bound that never binds, for the statement's LIMIT.
UNCAPPED = 2**31 - 1
# Plain BM25: no context words, no cap on a word's share (what `score` does unless told).
PLAIN = GatherConfig(context_weight=0.0, df_share=1.0)


@dataclass(frozen=True)
class Corpus:
    """A namespace's active memories: how many, and their average length in characters."""

    size: int
    avg_length: float


def read_corpus(key: tuple[Store, str]) -> Corpus:
    """The namespace ``key`` names' statistics, read now (cached by `caches`)."""
    store, namespace = key
    rows = store.read("recall/corpus_stats", namespace=namespace)
    row = rows[0] if rows else {}
    return Corpus(int(row.get("size") or 0), float(row.get("avg_length") or 0.0))


@dataclass(frozen=True)
class Sample:
    """Active memories of a namespace drawn at random: ``size`` of the namespace's ``corpus``,
    and how many of them each keyed word (`fulltext.term`) indexes; ``taken`` is when
    (monotonic seconds)."""

    size: int
    corpus: int
    holders: Counter[str]
    taken: float

    def estimate(self, term: str) -> float:
        """How many of the namespace's active memories ``term`` indexes, by the sample."""
        return self.holders[term] * self.corpus / self.size if self.size else 0.0


def term_counts(text: str, words: Collection[str]) -> Counter[str]:
    """How often each of ``words`` is a token of ``text`` (see the module docstring)."""
    return Counter(t for t in fulltext.tokens(text) if t in words)


def bm25(
    tf: Mapping[str, float],
    length: int,
    df: Mapping[str, int],
    corpus: Corpus,
    df_share: float = 1.0,
) -> float:
    """BM25 of one document: ``tf`` its counts of the query words, ``length`` its length,
    ``df`` each word's document frequency in ``corpus``; a word held by more than ``df_share``
    of the corpus scores as held by that share (its idf saturates there instead of falling
    toward 0)."""
    norm = K1 * (1 - B + B * length / corpus.avg_length) if corpus.avg_length > 0 else K1
    score = 0.0
    for word, n in tf.items():
        total = max(corpus.size, df.get(word, 0))
        d = min(df.get(word, 0), df_share * total)
        idf = math.log(1 + (total - d + 0.5) / (d + 0.5))
        score += idf * n * (K1 + 1) / (n + norm)
    return score


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


def _grouped(counts: Mapping[str, float], groups: Mapping[str, str]) -> dict[str, float]:
    if not groups:
        return dict(counts)
    out: dict[str, float] = {}
    for word, n in counts.items():
        term = groups.get(word, word)
        out[term] = out.get(term, 0) + n
    return out


def _counts(namespace: str, hit: Row, wanted: set[str], context_weight: float) -> dict[str, float]:
    """A hit's counts of the ``wanted`` words: per occurrence in its content, and
    ``context_weight`` for a word it is indexed by (``terms``) that its content lacks."""
    counts: dict[str, float] = dict(term_counts(str(hit["content"] or ""), wanted))
    missing = wanted.difference(counts) if context_weight > 0 else set()
    if missing:
        terms = set(str(hit.get("terms") or "").split())
        counts.update((w, context_weight) for w in missing if fulltext.term(namespace, w) in terms)
    return counts


class TermFrequencies:
    """Cached per-namespace document frequencies of one store's full-text index (thread-safe).

    budget: postings a query may cost (None: no budget, every word kept); counts stop at
        budget + 1, beyond which only "too many" matters.
    corpus: the namespaces' sizes and average lengths, cached (the runtime's: `caches`).
    ttl: seconds a count is reused before it is counted again (still used meanwhile).
    on_path_max: a namespace of at most this many active memories counts new words on the
        query's path (see the module docstring).
    """

    def __init__(
        self,
        store: Store,
        budget: int | None,
        *,
        corpus: Revalidating[tuple[Store, str], Corpus],
        ttl: float = TERM_TTL_S,
        on_path_max: int = ON_PATH_MAX,
    ) -> None:
        self._store = store
        self.budget = budget
        self._corpus = corpus
        self.on_path_max = on_path_max
        self._ttl = ttl
        self._known: dict[tuple[str, str], tuple[float, int]] = {}
        self._counting: set[tuple[str, str]] = set()
        self._samples: dict[str, Sample] = {}
        self._sampling: set[str] = set()
        self._lock = threading.Lock()

    def select(self, namespace: str, words: Sequence[str], counter: Executor) -> list[str]:
        """``words`` cut to the budget by the namespace's frequencies (`counted`)."""
        known = self.counted(namespace, words, counter)
        return list(words) if self.budget is None else select_terms(words, known, self.budget)

    def counted(self, namespace: str, words: Sequence[str], counter: Executor) -> dict[str, int]:
        """The namespace's frequency of each of ``words``. Those never counted are counted now
        in one statement if the namespace has at most ``on_path_max`` active memories, else on
        ``counter`` (meanwhile absent, or budget + 1 where the namespace's sample puts it over
        the budget; the sample itself is taken on ``counter``); an expired count is returned
        and recounted on ``counter``. A word the sample puts over twice the budget is not
        counted: its count, read from every posting, would cost what searching it would, to
        tell what the sample tells. A word whose count failed is absent (a later query counts
        it again)."""
        with self._lock:
            unknown = any((namespace, w) not in self._known for w in words)
        on_path = unknown and self._small(namespace)
        if unknown and not on_path:
            self._resample(namespace, counter)
        now = time.monotonic()
        new: list[str] = []
        later: list[str] = []
        with self._lock:
            sample = self._samples.get(namespace)
            for word in dict.fromkeys(words):
                key = (namespace, word)
                cached = self._known.get(key)
                if cached is None and on_path:
                    new.append(word)
                elif cached is None and self._over(sample, namespace, word, times=2):
                    continue
                elif (cached is None or now - cached[0] >= self._ttl) and key not in self._counting:
                    self._counting.add(key)
                    later.append(word)
        if new:
            self._count(namespace, new)
        if later:
            counter.submit(self._count, namespace, later, refresh=True)
        return self.frequencies(namespace, words)

    def _over(self, sample: Sample | None, namespace: str, word: str, *, times: int = 1) -> bool:
        """Whether ``sample`` puts ``word`` over ``times`` the budget (over twice: no count
        needed)."""
        return (
            sample is not None
            and self.budget is not None
            and sample.estimate(fulltext.term(namespace, word)) > times * self.budget
        )

    def _small(self, namespace: str) -> bool:
        """Whether ``namespace`` is small enough to count new words on the query's path (not
        when its size cannot be read: its words are then counted later, like a big one's)."""
        try:
            return self._corpus.get((self._store, namespace)).size <= self.on_path_max
        except Exception:
            log.warning("reading a namespace's size failed; its new words are counted later")
            return False

    def _resample(self, namespace: str, counter: Executor) -> None:
        """Take ``namespace``'s sample on ``counter`` if it has none or an expired one."""
        with self._lock:
            sample = self._samples.get(namespace)
            due = sample is None or time.monotonic() - sample.taken >= self._ttl
            if not due or namespace in self._sampling or self.budget is None:
                return
            self._sampling.add(namespace)
        counter.submit(self.sample, namespace)

    def sample(self, namespace: str) -> Sample | None:
        """Draw ``namespace``'s sample now (about SAMPLE_SIZE of its active memories) and keep
        it for the estimates; None (and the old sample kept) if reading failed."""
        try:
            corpus = self._corpus.get((self._store, namespace))
            share = min(1.0, SAMPLE_SIZE / corpus.size) if corpus.size else 1.0
            rows = self._store.read(
                "recall/term_sample", namespace=namespace, share=share, limit=2 * SAMPLE_SIZE
            )
            holders: Counter[str] = Counter()
            for row in rows:
                holders.update(set(str(row["terms"] or "").split()))
            taken = Sample(len(rows), max(corpus.size, len(rows)), holders, time.monotonic())
            with self._lock:
                if len(self._samples) >= MAX_TERMS // SAMPLE_SIZE:
                    self._samples.clear()
                self._samples[namespace] = taken
            return taken
        except Exception:
            log.warning("sampling a namespace's full-text words failed; later queries retry")
            return None
        finally:
            with self._lock:
                self._sampling.discard(namespace)

    def count(self, namespace: str, words: Sequence[str]) -> dict[str, int]:
        """Count ``words`` in ``namespace`` now."""
        self._count(namespace, words)
        return self.frequencies(namespace, words)

    def frequencies(self, namespace: str, words: Sequence[str]) -> dict[str, int]:
        """The cached frequencies of ``words`` (expired or not); a word never counted is absent,
        or budget + 1 where the namespace's sample puts it over the budget."""
        with self._lock:
            found = {w: self._known.get((namespace, w)) for w in words}
            sample = self._samples.get(namespace)
        known = {w: cached[1] for w, cached in found.items() if cached is not None}
        if self.budget is not None:
            over = [w for w in words if w not in known and self._over(sample, namespace, w)]
            known.update((w, self.budget + 1) for w in over)
        return known

    def frequency(self, namespace: str, word: str) -> int | None:
        """The cached frequency of ``word`` (expired or not), None if never counted."""
        return self.frequencies(namespace, [word]).get(word)

    def score(
        self,
        namespace: str,
        words: Sequence[str],
        hits: Sequence[Row],
        groups: Mapping[str, str] | None = None,
        config: GatherConfig = PLAIN,
    ) -> dict[str, float]:
        """BM25 of each hit (``id``, ``content``, ``status``, ``terms``: its indexed words) for
        ``words``, by the namespace's statistics. A word not counted yet takes the number of
        active hits holding it. ``groups``: word -> the term it counts for (the forms of one
        word are one term: their counts add up, and so do their frequencies, capped at the
        namespace's size). ``config.context_weight``: what a word the hit is indexed by only
        through its context (`text.fulltext.indexed`) counts, against 1 per occurrence in
        the content. ``config.df_share``: the share of the namespace above which a word's
        frequency no longer lowers its weight (`bm25`); ``PLAIN``: neither."""
        corpus = self._corpus.get((self._store, namespace))
        wanted = set(words)
        group = groups or {}
        tfs = [_grouped(_counts(namespace, h, wanted, config.context_weight), group) for h in hits]
        active = (tf for h, tf in zip(hits, tfs, strict=True) if h["status"] == "active")
        seen = Counter(w for tf in active for w in tf)
        known = _grouped(Counter(self.frequencies(namespace, words)), group)
        df = {w: max(int(known.get(w, 0)), seen[w]) for w in {group.get(w, w) for w in wanted}}
        return {
            h["id"]: bm25(tf, len(str(h["content"] or "")), df, corpus, config.df_share)
            for h, tf in zip(hits, tfs, strict=True)
        }

    def _count(self, namespace: str, words: Sequence[str], *, refresh: bool = False) -> None:
        """Count ``words`` in one statement; ``refresh``: they were marked as being counted."""
        cap = UNCAPPED if self.budget is None else self.budget + 1
        terms = {fulltext.term(namespace, w): w for w in words}
        try:
            rows = self._store.read(
                "recall/term_frequencies",
                namespace=namespace,
                terms=list(terms),
                cap=cap,
                statuses=["active"],
            )
            found = {terms[r["term"]]: int(r["df"]) for r in rows if r["term"] in terms}
            now = time.monotonic()
            with self._lock:
                for word in terms.values():
                    self._known.pop((namespace, word), None)  # to the end: dropped last
                    while len(self._known) >= MAX_TERMS:
                        del self._known[next(iter(self._known))]
                    self._known[(namespace, word)] = (now, found.get(word, 0))
        except Exception:
            log.warning("counting full-text word frequencies failed; later queries retry")
        finally:
            if refresh:
                with self._lock:
                    self._counting.difference_update((namespace, w) for w in words)
