"""One ranking of every candidate: relevance + activation + speaker, addressee and date cues
(less a little for a memory that asks a question), x recency boost x confidence x importance;
the best few by that score without the activation are kept in the top k (``anchors``,
``kept``); then, within a session, what was surfaced already is held back unless it still ranks
near the top.

The confidence ranking reads (recall/scores and recall/expand) is the decayed one, but never
below the memory's stated confidence (``initial_confidence``, moved by feedback, x trust): age
alone is no evidence against a fact. Decay decides what fades out of the store (speculative
expiry, consolidation's weak-and-unused archiving), not how an old fact ranks against a new
one: with the decayed value, a LoCoMo store aged as a service ages it (``bench/lifecycle.py``:
19 to 32 sessions over months, then 90 days) had evidence recall@10 19.1 beside 78.5 fresh,
every early session outranked by the last ones."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hippograph.graph import clock
from hippograph.graph.model import now_iso, parse_iso
from hippograph.graph.recall import cues
from hippograph.graph.recall.candidates import Candidate, Pool, Query
from hippograph.graph.recall.recall_config import ScoreConfig
from hippograph.graph.recall.results import Explanation
from hippograph.graph.recall.seeds import SPEAKER_TAG, length_factor, relevance
from hippograph.graph.store.store import vector as as_vector


@dataclass(frozen=True, slots=True, kw_only=True)
class Scored:
    """A ranked candidate before its full memory is fetched: its score and the parts of it.
    Its Explanation is built only for what is returned (a recall ranks ~200 candidates)."""

    id: str
    score: float
    candidate: Candidate
    cosine: float
    fulltext: float
    relevance: float
    speaker: float
    time: float
    recency: float
    confidence: float
    importance: float
    length: float
    restated: float
    asks: float
    addressee: float
    direct: float  # the score without the activation received (``anchors``)

    @property
    def explanation(self) -> Explanation:
        trace = self.candidate
        return Explanation(
            seed=trace.seed,
            seed_kinds=tuple(sorted(trace.kinds or {"expanded"})),
            path=trace.path,
            cosine=self.cosine,
            fulltext=self.fulltext,
            relevance=self.relevance,
            activation=trace.received,
            speaker=self.speaker,
            time=self.time,
            recency=self.recency,
            confidence=self.confidence,
            importance=self.importance,
            score=self.score,
            length=self.length,
            restated=self.restated,
            asks=self.asks,
            addressee=self.addressee,
        )


def rank(q: Query, pool: Pool) -> tuple[list[Scored], float]:
    """The score stage: every candidate whose ranking fields were read, best first, and the best
    relevance among them (a gap below ``min_relevance``). Of a recall as of a past time, what
    was not current then is left out."""
    hidden = pool.hidden.result() if pool.hidden is not None else set()
    config, request = q.config.score, q.request
    windows = cues.WindowIndex(
        cues.date_windows(q.context, q.config.cues.time_slack_days)
        if config.time_weight > 0
        else []
    )
    now = clock.now().timestamp()
    scored: list[Scored] = []
    best = 0.0
    for candidate in pool.ranked():
        row = candidate.ranking
        assert row is not None
        if (
            candidate.id in hidden
            or row.status not in q.statuses
            or (request.memory_types and row.memory_type not in request.memory_types)
        ):
            continue
        rel = relevance(candidate, pool, q.config.relevance)
        best = max(best, rel)
        scored.append(_scored(q, pool, candidate, rel, windows, now))
    scored.sort(key=lambda r: (-r.score, r.id))
    return scored, best


def _scored(
    q: Query, pool: Pool, candidate: Candidate, rel: float, windows: cues.WindowIndex, now: float
) -> Scored:
    """One candidate's score and its parts (see the module docstring)."""
    config, named = q.config.score, q.cues.named
    row = candidate.ranking
    assert row is not None
    length = length_factor(row.length, q.config.relevance)
    said_by = {t[len(SPEAKER_TAG) :] for t in row.speakers or ()}
    speaker = 1.0 if len(named) == 1 and said_by & named else 0.0
    restated = config.restating_activation if said_by and said_by <= q.cues.restates else 1.0
    addressee = config.addressee_weight if said_by & q.cues.addressed else 0.0
    when = 1.0 if windows and parse_iso(row.created_at) in windows else 0.0
    recency = recency_boost(row.last_accessed, now, config)
    confidence = float(row.confidence or 0.0)
    importance = float(row.importance or 0.0)
    asks = config.question_discount if row.asks else 0.0
    received = config.activation_weight * candidate.received * length * restated
    base = (
        rel
        + received
        + config.speaker_weight * speaker
        + addressee
        + config.time_weight * when
        - asks
    )
    factor = recency * confidence * (1 + config.importance_weight * importance)
    return Scored(
        id=candidate.id,
        score=base * factor,
        candidate=candidate,
        cosine=float(row.cosine),
        fulltext=pool.fulltext.get(candidate.id, 0.0),
        relevance=rel,
        speaker=speaker,
        time=when,
        recency=recency,
        confidence=confidence,
        importance=importance,
        length=length,
        restated=restated,
        asks=asks,
        addressee=addressee,
        direct=(base - received) * factor,
    )


def anchors(ranked: list[Scored], k: int, count: int) -> list[str]:
    """The ``count`` best candidates by their own score (``Scored.direct``: relevance and cues,
    without the activation received), at most ``k``: what recall keeps in the top k (``kept``)
    whatever activation the others received, so that activation may reorder the top k but not
    push out what the question itself finds best."""
    if count <= 0 or len(ranked) <= k:
        return []
    return [r.id for r in sorted(ranked, key=lambda r: (-r.direct, r.id))[: min(count, k)]]


def kept(ranked: list[Scored], k: int, ids: Sequence[str]) -> list[Scored]:
    """``ranked`` with the candidates ``ids`` names inside the first ``k`` (the first ``k`` of
    them that are ranked, in the order given, when they are more): the other places of the top
    k go to the best of the rest; the top k, and what follows, keep their order."""
    present = {r.id for r in ranked}
    wanted = [i for i in dict.fromkeys(ids) if i in present][:k]
    if not wanted or len(ranked) <= k:
        return ranked
    others = [r.id for r in ranked if r.id not in wanted][: k - len(wanted)]
    chosen = set(wanted).union(others)
    return [r for r in ranked if r.id in chosen] + [r for r in ranked if r.id not in chosen]


def restating(lengths: dict[str, float], ratio: float) -> frozenset[str]:
    """The speakers whose memories run ``restating_ratio`` times longer on average than the
    tersest speaker's (``lengths``: speaker -> mean length): an assistant's answers beside a
    person's messages, restating and elaborating what the person said."""
    if len(lengths) < 2:
        return frozenset()
    tersest = min(lengths.values())
    return frozenset(name for name, length in lengths.items() if length >= ratio * tersest)


def recency_boost(last_accessed: str | None, now: float, config: ScoreConfig) -> float:
    """1 + boost x e^(-hours since last access / hours); a never-used memory gets no boost."""
    if not last_accessed or config.recency_boost <= 0:
        return 1.0
    hours = max(0.0, (now - parse_iso(last_accessed).timestamp()) / 3600)
    return 1 + config.recency_boost * math.exp(-hours / config.recency_hours)


def choose(q: Query, pool: Pool, ranked: list[Scored]) -> tuple[list[Scored], bool]:
    """The choose stage: the top k, with the standing instructions that apply, then the
    anchors, inside it (``kept``), what applies first (``leading``); within a session, what was
    surfaced already held back (``session_filter``). Returns the chosen and whether the
    session's topic changed."""
    wanted = [*pool.standing, *anchors(ranked, q.k, q.config.choose.anchors)]
    chosen = leading(kept(ranked, q.k, wanted), list(pool.standing))
    return session_filter(q, pool.query, chosen)


def leading(ranked: list[Scored], ids: Sequence[str]) -> list[Scored]:
    """``ranked`` with the candidates ``ids`` names first, in that order: a constraint or an
    instruction that applies to the task is what an agent must read before the rest."""
    by_id = {r.id: r for r in ranked}
    first = [by_id[i] for i in dict.fromkeys(ids) if i in by_id]
    if not first:
        return ranked
    taken = {r.id for r in first}
    return first + [r for r in ranked if r.id not in taken]


def session_filter(q: Query, query: Any, ranked: list[Scored]) -> tuple[list[Scored], bool]:
    """Within a session, what was surfaced already is not repeated unless it still ranks in the
    top ``resurface_top``; a change of topic clears that memory."""
    request, ns, k, config = q.request, q.namespace, q.k, q.config.choose
    if not request.session_id:
        return ranked[:k], False
    uid = f"{ns}|{request.session_id}"
    state = q.store.read("recall/session_state", uid=uid)
    surfaced: list[str] = list(state[0]["surfaced"] or []) if state else []
    reset = False
    if state and state[0]["context_embedding"]:
        previous = np.asarray(state[0]["context_embedding"], dtype=np.float32)
        if float(previous @ np.asarray(query)) < config.topic_shift:
            surfaced, reset = [], True
    seen = set(surfaced)
    chosen = [
        r for rank, r in enumerate(ranked) if rank < config.resurface_top or r.id not in seen
    ][:k]
    merged = list(dict.fromkeys([*surfaced, *(r.id for r in chosen)]))[-500:]
    q.store.write(
        "recall/session_save",
        uid=uid,
        namespace=ns,
        session_id=request.session_id,
        context_embedding=as_vector(query),
        surfaced=merged,
        now=now_iso(),
    )
    return chosen, reset
