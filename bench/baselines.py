"""LoCoMo evidence recall of the three flat baselines: dense vector, BM25 and their RRF.

Each conversation is its own namespace: a question only searches the turns of its
conversation. Run: ``python -m bench.baselines`` (from the repository root).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from bench import locomo_data as data

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    s t d ll m re ve don didn doesn isn wasn""".split()  # noqa: SIM905 - reads as prose
)
_TOKEN = re.compile(r"[a-z0-9]+")


def tokenize(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text.lower()) if t not in STOPWORDS]


class BM25:
    """Okapi BM25 over a fixed list of documents (idf with the usual +1 to stay positive)."""

    def __init__(self, documents: Sequence[str], *, k1: float = 1.2, b: float = 0.75) -> None:
        self.k1, self.b = k1, b
        self.docs = [Counter(tokenize(doc)) for doc in documents]
        self.lengths = np.array([sum(d.values()) for d in self.docs], dtype=np.float64)
        self.avg_length = float(self.lengths.mean()) if len(self.docs) else 0.0
        df: Counter[str] = Counter(term for d in self.docs for term in d)
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for i, d in enumerate(self.docs):
            for term, tf in d.items():
                self.postings.setdefault(term, []).append((i, tf))

    def scores(self, query: str) -> np.ndarray:
        out = np.zeros(len(self.docs))
        norm = self.k1 * (1 - self.b + self.b * self.lengths / max(self.avg_length, 1e-9))
        for term in set(tokenize(query)):
            for i, tf in self.postings.get(term, ()):
                out[i] += self.idf[term] * tf * (self.k1 + 1) / (tf + norm[i])
        return out


def rank(scores: np.ndarray) -> np.ndarray:
    """Indices by descending score (stable, so ties keep document order)."""
    return np.argsort(-scores, kind="stable")


def bm25_rank(scores: np.ndarray) -> np.ndarray:
    """Only documents sharing a term with the query are BM25 hits."""
    order = rank(scores)
    hits: np.ndarray = order[scores[order] > 0]
    return hits


def rrf(rankings: Sequence[np.ndarray], n: int, *, k: int = 60) -> np.ndarray:
    """Reciprocal-rank fusion scores: sum over rankings of 1 / (k + rank), rank from 1."""
    fused = np.zeros(n)
    for ranking in rankings:
        fused[ranking] += 1.0 / (k + np.arange(1, len(ranking) + 1))
    return fused


def run(conversations: Sequence[data.Conversation]) -> dict[str, data.RecallTable]:
    tables = {name: data.RecallTable() for name in ("vector", "bm25", "rrf")}
    for conv in conversations:
        ids = [t.dia_id for t in conv.turns]
        memory_vecs = data.embed([t.text for t in conv.turns])
        query_vecs = data.embed([q.question for q in conv.questions])
        bm25 = BM25([t.text for t in conv.turns])
        for question, qv in zip(conv.questions, query_vecs, strict=True):
            by_vector = rank(memory_vecs @ qv)
            by_bm25 = bm25_rank(bm25.scores(question.question))
            fused = rank(rrf([by_vector, by_bm25], len(ids)))
            for name, order in (("vector", by_vector), ("bm25", by_bm25), ("rrf", fused)):
                tables[name].add(question, [ids[i] for i in order[:10]])
    return tables


def main() -> None:
    conversations = data.load()
    tables = run(conversations)
    n = tables["vector"].count()
    print(f"LoCoMo dev: {len(conversations)} conversations, {n} questions")
    for k in (5, 10):
        print(f"\nrecall@{k}      {data.table_header()}")
        for name, table in tables.items():
            print(f"{name:<12} {table.row(k)}")


if __name__ == "__main__":
    main()
