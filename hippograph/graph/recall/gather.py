"""The gather stage: a recall's first candidates from every source into one pool.

Neither the full-text hits nor the negative rules (nor what was not current as of a past time)
need the query vector: the engine answers them while the model embeds the query (ONNX Runtime
and the driver release the GIL). The standing instructions are read first (one index lookup):
the user's name among them changes what is embedded (`_embedded`). Then the standing instructions
whose condition the context asks about, the vector hits with the feedback that moves the query
toward its best hits, and beside them the vocabulary seeds; last the seeds are chosen
(`seeds.seeds`)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from hippograph.graph.models.embedder import Embedder
from hippograph.graph.recall import mentions, standing
from hippograph.graph.recall.candidates import Pool, Query
from hippograph.graph.recall.seeds import (
    fulltext_hits,
    query_words,
    seeds,
    vector_hits,
    vector_prf,
)
from hippograph.graph.recall.surface import triggered
from hippograph.graph.recall.vocabulary import vocabulary_hits
from hippograph.graph.store.store import Store
from hippograph.graph.text import standing as text_standing


def gather(q: Query, embedder: Embedder) -> Pool:
    """The pool of ``q``'s seeds, each source's hits kept for scoring (see the module)."""
    config, threads = q.config.gather, q.caches.pool
    fulltext_job = threads.submit(fulltext_hits, q, q.cues.searched, q.seed_statuses)
    rules_job = (
        threads.submit(standing.rules, q.store, q.namespace, q.statuses, q.scope, q.config)
        if config.standing_rules > 0
        else None
    )
    negatives = threads.submit(triggered, q.store, q.namespace, q.context, q.scope, q.config)
    hidden = (
        threads.submit(_hidden, q.store, q.namespace, q.as_of, q.valid_at)
        if q.as_of or q.valid_at
        else None
    )
    rules = rules_job.result() if rules_job is not None else []
    t0 = time.perf_counter()
    query = _embedded(embedder, q.cues.searched, standing.named_user(rules))
    embed_ms = (time.perf_counter() - t0) * 1000
    pool = Pool(query=query, negatives=negatives, hidden=hidden, embed_ms=embed_ms)
    # Ranked by the question itself (no feedback yet), beside the vector search.
    entity_job = threads.submit(mentions.entity_hits, q, pool.query)
    if rules_job is not None:
        # Matched against the question itself, before feedback moves it.
        applying = standing.matching(
            rules, embedder, pool.query, q.config, q.caches.conditions, q.context
        )
        pool.standing = {i: cosine for i, (_, cosine) in applying.items()}
        pool.eids.update((i, eid) for i, (eid, _) in applying.items())
    pool.take_fulltext(fulltext_job.result())
    # The vocabulary seeds need the query vector and the full-text hits (what they found is not
    # the vocabulary's to seed), and run beside the vector search; turned off, nothing runs.
    vocabulary_job = (
        threads.submit(
            vocabulary_hits, q, pool.query, set(query_words(q.cues.searched)), list(pool.fulltext)
        )
        if config.vocabulary_seeds > 0
        else None
    )
    _vector(q, pool)
    if vocabulary_job is not None:
        found = vocabulary_job.result()
        # What the vector search found (below the seeds' floor too) is not the vocabulary's.
        pool.words = {
            i: w for i, w in found.scores.items() if i not in pool.vector and i not in pool.spoken
        }
        pool.retired |= found.retired & pool.words.keys()
        pool.eids.update((i, found.eids[i]) for i in pool.words)
    mentions.add(pool, entity_job.result())
    seeds(q, pool)
    return pool


def _vector(q: Query, pool: Pool) -> None:
    """The vector hits, the named speaker's nearest, and the query moved by feedback."""
    config = q.config.gather
    if config.prf_weight <= 0:
        pool.vector = vector_hits(q, pool)
        speaker = q.cues.speaker
        pool.spoken = vector_hits(q, pool, speaker=speaker) if speaker else {}
        return
    # The vector seeds and the feedback on them in one statement.
    moved = vector_prf(q, pool)
    if config.prf_search:
        pool.vector = vector_hits(q, pool)
    elif moved:
        # The hits at hand re-ranked by their cosine to the moved query: what a second search
        # would return where it finds nothing new, without its cost.
        pool.vector = moved


def _embedded(embedder: Embedder, text: str, user: str | None) -> Any:
    """The query's embedding; when it names the user, the mean of it and of the same text
    with "the user" for the name: what the user said of themselves before the service knew
    their name is written about "the user" ("Where does Jonas work now?" and "The user left
    Spotify and joined Klarna")."""
    alias = text_standing.as_user(text, user)
    if alias == text:
        return embedder.embed([text])[0]
    both = np.asarray(embedder.embed([text, alias]), dtype=np.float32)
    mean = both.mean(axis=0)
    return mean / max(float(np.linalg.norm(mean)), 1e-12)


def _hidden(store: Store, namespace: str, as_of: str | None, valid_at: str | None) -> set[str]:
    """What was not current as of ``as_of``, and what did not hold at ``valid_at``: expansion
    may reach it, ranking leaves it out."""
    hidden: set[str] = set()
    if as_of:
        rows = store.read("recall/as_of_hidden", namespace=namespace, as_of=as_of)
        hidden |= {r["id"] for r in rows}
    if valid_at:
        rows = store.read("recall/valid_hidden", namespace=namespace, valid_at=valid_at)
        hidden |= {r["id"] for r in rows}
    return hidden
