"""The cascade's first steps: full-text hits (the rarest query words, with the other forms of
a word the namespace rarely holds in the asked form, scored by BM25 over the namespace's own
statistics: `termstats`), vector hits, pseudo-relevance feedback (the query
moved toward its most relevant hits), and the seeds chosen from both, each superseded seed
replaced by its successor."""

from __future__ import annotations

import math
from concurrent.futures import Executor
from typing import Any

import numpy as np

from hippograph.graph.recall import termstats
from hippograph.graph.recall.candidates import Candidate, Hits, Pool, Query
from hippograph.graph.recall.recall_config import CascadeConfig, RelevanceConfig
from hippograph.graph.store import nearest
from hippograph.graph.store.store import Row
from hippograph.graph.store.store import vector as as_vector
from hippograph.graph.text import forms as inflections
from hippograph.graph.text import fulltext

# The tag the tagger gives a memory for who said it (write.tagging): speaker:<name>.
SPEAKER_TAG = "speaker:"


def query_words(text: str) -> list[str]:
    """The distinct content words of ``text``, lowercased, as the index holds them."""
    return fulltext.words(text)[: fulltext.MAX_QUERY_WORDS]


def fulltext_hits(q: Query, text: str, statuses: list[str]) -> Hits:
    """Full-text hits for ``text`` among ``q``'s memories of ``statuses`` (on a recall, the
    query's searched text and seed statuses): id -> BM25 by the namespace's statistics, best
    first, which of them are not active (superseded, archived), and their element ids. The
    index only finds them: its own scores use every namespace's statistics (see `termstats`)."""
    store, ns, scope, config = q.store, q.namespace, q.scope, q.config
    words = query_words(text)
    if not words or config.gather.fulltext_hits <= 0:
        return Hits({}, set(), {})
    stats = q.caches.frequencies(store)
    words, groups = _with_forms(ns, words, stats, q.caches.counter, config)
    # The index is asked for the rarer words only (the budget); the hits they find are scored
    # by every word, a frequent one included (Lucene's common-terms query: the frequent words
    # rank what the rare ones found).
    searched = stats.select(ns, words, q.caches.counter)
    if not searched:
        return Hits({}, set(), {})
    k = config.gather.fulltext_hits
    candidates = max(k * config.gather.fulltext_oversample, k)
    while True:
        found_rows = store.read(
            "recall/fulltext_seeds",
            namespace=ns,
            query=fulltext.query(ns, searched),
            statuses=statuses,
            candidates=candidates,
            **scope,
        )
        # One row, even with no hits (an aggregate over nothing); guard anyway.
        found: Row = found_rows[0] if found_rows else {"fetched": 0, "hits": []}
        hits: list[Row] = found["hits"]
        truncated = int(found["fetched"]) >= candidates
        if len(hits) >= k or not truncated or candidates >= config.gather.fulltext_max_candidates:
            break
        candidates = min(candidates * 10, config.gather.fulltext_max_candidates)
    scores = stats.score(ns, words, hits, groups, config.gather)
    # A guard: a hit holding none of the query words (its indexed words out of step with its
    # content, written around the write path) has nothing to score it by.
    rows = sorted(
        (h for h in hits if scores[h["id"]] > 0), key=lambda h: (-scores[h["id"]], h["id"])
    )[:k]
    retired = {r["id"] for r in rows if r["status"] != "active"}
    return Hits(
        {r["id"]: scores[r["id"]] for r in rows}, retired, {r["id"]: r["eid"] for r in rows}
    )


def _with_forms(
    ns: str,
    words: list[str],
    stats: termstats.TermFrequencies,
    counter: Executor,
    config: CascadeConfig,
) -> tuple[list[str], dict[str, str]]:
    """The query words and the other forms of each word the namespace holds fewer than
    ``config.gather.forms_below`` times (`forms`: "camped" also searches camp, camps, camping;
    "recommended" recommend), with what each form scores as (its word: ``termstats`` adds them up).
    A word used often in the asked form is not widened (more of the same topic, not more
    answers), nor is a form the namespace is known not to hold. The counts are `termstats`'s
    (the words', then the forms' of the rare ones), taken on the query's path in a namespace
    small enough; in a bigger one a word not counted yet is widened, and its forms searched
    (counted on ``counter``)."""
    known = stats.counted(ns, words, counter)
    rare = [w for w in words if known.get(w, 0) < config.gather.forms_below]
    forms = {w: list(inflections.forms(w)) for w in rare}
    known.update(stats.counted(ns, [f for fs in forms.values() for f in fs], counter))
    groups: dict[str, str] = {word: word for word in words}
    for word in rare:
        for form in forms[word]:
            if known.get(form, 1) > 0:
                groups.setdefault(form, word)
    return list(groups), groups


def vector_hits(
    q: Query, pool: Pool, *, exact: bool = False, speaker: str | None = None
) -> dict[str, float]:
    """The nearest memories to ``pool.query`` by the vector index, or by an exact scan where the
    index leaves too few (``exact``: the caller already knows it does). With ``speaker``: the
    ``speaker_seeds`` nearest that speaker said, by an exact scan of that speaker's memories
    (the speaker seeds where the index leaves too few of the namespace; ``vector_prf`` reads
    them from the index's hits otherwise)."""
    config = q.config.gather
    k = max(config.vector_seeds, config.prf_depth)
    params = {
        "namespace": q.namespace, "statuses": q.seed_statuses,
        "embedding": as_vector(pool.query), **q.scope,
    }  # fmt: skip
    if speaker is not None:
        if config.speaker_seeds <= 0:
            return {}
        speaker_tag = f"{SPEAKER_TAG}{speaker}"
        rows = q.store.read(
            "recall/speaker_seeds_exact", k=config.speaker_seeds, speaker=speaker_tag, **params
        )
    elif exact:
        rows = q.store.read("recall/vector_seeds_exact", k=k, **params)
    else:
        rows = nearest.nearest(
            q.store, "recall/vector_seeds", "recall/vector_seeds_exact", k, floor=100, **params
        )
    pool.found(rows)
    return {r["id"]: float(r["cosine"]) for r in rows}


def prf(q: Query, pool: Pool, vector: dict[str, float]) -> tuple[Any, dict[str, float]]:
    """Pseudo-relevance feedback: the query moved toward its most relevant memories, and the
    cosine to the moved query of every hit of ``vector`` and the full-text hits.

    The engine ranks the hits by relevance (a cosine is cheaper computed there than an
    embedding shipped), returns the prf_depth best embeddings and, per hit, its cosines to the
    query and to each of them, in one statement. For unit vectors, with c the mean of the
    feedback embeddings, cos(m, q + w c) = (cos(m, q) + w mean_i cos(m, e_i)) / |q + w c|.
    """
    top_ft = pool.top_fulltext
    hits = [
        {
            "id": i,
            "eid": pool.eids[i],
            "ft": pool.fulltext.get(i, 0.0) / top_ft if top_ft > 0 else 0.0,
        }
        for i in dict.fromkeys([*vector, *pool.fulltext])
    ]
    found = q.store.read(
        "recall/feedback",
        namespace=q.namespace,
        pool=hits,
        embedding=as_vector(pool.query),
        alpha=q.config.relevance.alpha,
        depth=q.config.gather.prf_depth,
    )
    return _moved(pool.query, found[0] if found else None, q.config)


def vector_prf(q: Query, pool: Pool) -> dict[str, float]:
    """``vector_hits`` then ``prf`` on them and the full-text hits, in one statement
    (``recall/vector_feedback``, a round trip less on the query's path): sets the pool's
    vector hits, its moved query and the ``speaker_seeds`` nearest of the index's hits said by
    the one speaker the context names (their cosines to the query), and returns the hits'
    cosines to the moved query. Where the vector index leaves fewer than it was asked for, the
    exact scans and ``prf`` run apart (``vector_hits`` with ``exact``, then with ``speaker``)."""
    config = q.config.gather
    speaker = q.cues.speaker
    k = max(config.vector_seeds, config.prf_depth)
    top_ft = pool.top_fulltext
    found = q.store.read(
        "recall/vector_feedback",
        namespace=q.namespace,
        statuses=q.seed_statuses,
        embedding=as_vector(pool.query),
        k=k,
        candidates=nearest.candidates(q.store, k, 100),
        fulltext=[
            {"id": i, "eid": pool.eids[i], "ft": score / top_ft if top_ft > 0 else 0.0}
            for i, score in pool.fulltext.items()
        ],
        alpha=q.config.relevance.alpha,
        depth=config.prf_depth,
        speaker=f"{SPEAKER_TAG}{speaker}" if speaker and config.speaker_seeds > 0 else None,
        speaker_k=config.speaker_seeds,
        **q.scope,
    )
    near = found[0]["near"] if found else []
    if len(near) < k:  # what recall/vector_seeds would find too: scan exactly
        pool.vector = vector_hits(q, pool, exact=True)
        if not (pool.vector or pool.fulltext):
            return {}
        said = vector_hits(q, pool, speaker=speaker) if speaker else {}
        pool.query, moved = prf(q, pool, pool.vector)
        pool.spoken = said
        return moved
    spoken = found[0]["spoken"]
    pool.retired.update(
        memory_id for memory_id, _, _, status in near + spoken if status != "active"
    )
    pool.eids.update((memory_id, eid) for memory_id, eid, _, _ in near + spoken)
    pool.vector = {memory_id: float(cosine) for memory_id, _, cosine, _ in near}
    pool.spoken = {memory_id: float(cosine) for memory_id, _, cosine, _ in spoken}
    pool.query, moved = _moved(pool.query, found[0], q.config)
    return moved


def _moved(query: Any, found: Row | None, config: CascadeConfig) -> tuple[Any, dict[str, float]]:
    """The query moved toward the feedback embeddings ``found`` holds, and each hit's cosine
    to it (see ``prf``)."""
    vectors = found["embeddings"] if found else []
    if not found or not vectors:
        return query, {}
    weight = config.gather.prf_weight
    moved = np.asarray(query) + weight * np.mean(np.asarray(vectors, dtype=np.float32), axis=0)
    norm = float(np.linalg.norm(moved))
    share = weight / len(vectors)
    cosines = {
        memory_id: (float(cosine) + share * float(feedback)) / norm
        for memory_id, cosine, feedback in found["hits"]
    }
    return moved / norm, cosines


def relevance(candidate: Candidate, pool: Pool, config: RelevanceConfig) -> float:
    """alpha x cosine + (1 - alpha) x full-text score / the best one, the full-text part x its
    length factor (``fulltext_length_weight``), of a candidate whose ranking fields are read."""
    ranking = candidate.ranking
    assert ranking is not None
    top_ft = pool.top_fulltext
    ft_part = pool.fulltext.get(candidate.id, 0.0) / top_ft if top_ft > 0 else 0.0
    length = length_factor(ranking.length, config, config.fulltext_length_weight)
    return config.alpha * float(ranking.cosine) + (1 - config.alpha) * ft_part * length


def length_factor(length: Any, config: RelevanceConfig, weight: float | None = None) -> float:
    """1 / (1 + weight x ln(length / long_memory_chars)) for a memory longer than the embedding
    model reads, else 1: what discounts the signals that grow with a memory's length (the
    activation it gathers: ``length_weight``, the default ``weight``; its full-text score:
    ``fulltext_length_weight``)."""
    chars = int(length or 0)
    weight = config.length_weight if weight is None else weight
    if weight <= 0 or chars <= config.long_memory_chars:
        return 1.0
    return 1 / (1 + weight * math.log(chars / config.long_memory_chars))


def seeds(q: Query, pool: Pool) -> None:
    """The pool's first candidates: the vector seeds (held to the cosine floor), the full-text
    seeds, the named speaker's nearest memories (see ``vector_prf``), the vocabulary seeds
    (weightiest first, what no other source found: `vocabulary`) and the standing
    instructions whose condition the context asks about (`recall.standing`), each retired one
    (unless as of a past time) replaced by its successor."""
    config = q.config.gather
    chosen: dict[str, set[str]] = {}
    nearest = sorted(pool.vector.items(), key=lambda kv: -kv[1])[: config.vector_seeds]
    # When no vector hit clears the floor the nearest ones are seeds anyway, full-text seeds
    # or not: a weak full-text hit alone would otherwise decide everything the recall returns
    # (the result is flagged as a gap by its low relevance).
    floor = config.min_seed_cosine if any(c >= config.min_seed_cosine for _, c in nearest) else -1.0
    for memory_id, cosine in nearest:
        if cosine >= floor:
            chosen.setdefault(memory_id, set()).add("vector")
    sources = (
        (pool.fulltext, config.fulltext_seeds, "fulltext"),
        (pool.spoken, config.speaker_seeds, "speaker"),
        (pool.words, config.vocabulary_seeds, "vocabulary"),
        (pool.standing, len(pool.standing), "standing"),
        (pool.entities, config.entity_seeds, "entity"),
    )
    for hits, count, kind in sources:
        for memory_id in list(hits)[:count]:
            chosen.setdefault(memory_id, set()).add(kind)
    # Only a memory no longer active can have a successor (superseded, or archived after it).
    # As of a past time a memory current then answers as itself, not as its successor.
    replaced = [i for i in chosen if i in pool.retired] if not q.as_of else []
    found = (
        q.store.read("recall/successors", namespace=q.namespace, ids=replaced) if replaced else []
    )
    successors = {r["old_id"]: r["new_id"] for r in found}
    pool.eids.update((r["new_id"], r["new_eid"]) for r in found)
    for memory_id, kinds in chosen.items():
        target = successors.get(memory_id, memory_id)
        candidate = pool.candidates.setdefault(target, Candidate(id=target, seed=target))
        candidate.kinds |= kinds | ({"successor"} if target != memory_id else set())
        step = pool.entities.get(memory_id) if "entity" in kinds else None
        if step is not None and step.weight > candidate.received:
            # What the named entity passes on: ranked as activation received.
            candidate.received = step.weight
            candidate.path = (step,)
