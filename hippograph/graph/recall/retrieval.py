"""Recall: the retrieval cascade.

1. Focus: speakers the context names become a cue and leave the searched text (`cues.focus`).
2. Hybrid seeds: vector-index top-N (cosine floor) plus full-text hits; relevance is
   ``alpha * cosine + (1 - alpha) * full-text / max full-text``.
3. Pseudo-relevance feedback: the query vector moves toward the most relevant memories; the
   moved vector scores every candidate, and the vector seeds are the hits re-ranked by it (or,
   if the preset asks, the index is searched again with it).
4. Breadth-first expansion in Cypher (`recall/expand`), one statement per hop, over weighted
   edges, activation decaying per hop, fan-out bounded per node, hubs skipped.
5. One ranking: relevance + activation + cues, x recency boost x confidence x importance.

A superseded seed is replaced by its active successor; archived memories stay out unless asked
for; negative memories whose trigger patterns match the context are always surfaced, flagged.
"""

from __future__ import annotations

import logging
import math
import re
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from hippograph.graph import validate
from hippograph.graph.memories import to_memory
from hippograph.graph.model import MEMORY_TYPES, Memory, now_iso, parse_iso
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.recall import cues, termstats
from hippograph.graph.recall.recall_config import DEFAULT_CASCADE, CascadeConfig
from hippograph.graph.store.revalidating import Revalidating
from hippograph.graph.store.store import Row, Store
from hippograph.graph.store.store import vector as as_vector
from hippograph.graph.write.tagging import STOPWORDS

log = logging.getLogger(__name__)
_WORD = re.compile(r"[A-Za-z0-9]+")
# Reads of one recall that can run beside the query embedding (full-text seeds, negative rules).
_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="hippograph-recall")
SPEAKER_PREFIX = "speaker:"


@dataclass(frozen=True, kw_only=True)
class RecallRequest:
    context: str
    k: int = 10
    project: str | None = None
    session_id: str | None = None
    memory_types: tuple[str, ...] = ()
    include_archived: bool = False
    include_history: bool = False
    explain: bool = False


@dataclass(frozen=True, kw_only=True)
class Step:
    """One edge followed during expansion."""

    from_id: str
    to_id: str
    type: str
    via: str
    weight: float


@dataclass(frozen=True, kw_only=True)
class Explanation:
    seed: str  # the seed the memory was reached from (itself for a seed)
    seed_kinds: tuple[str, ...]  # vector, fulltext, successor, trigger, expanded
    path: tuple[Step, ...]
    cosine: float
    fulltext: float
    relevance: float
    activation: float
    speaker: float
    time: float
    recency: float
    confidence: float
    importance: float
    score: float


@dataclass(frozen=True, kw_only=True)
class HistoryEntry:
    id: str
    content: str
    created_at: str
    superseded_at: str | None
    reason: str | None


@dataclass(frozen=True, kw_only=True)
class Recalled:
    memory: Memory
    score: float
    flagged: bool = False
    history: tuple[HistoryEntry, ...] = ()
    explanation: Explanation | None = None


@dataclass(frozen=True, kw_only=True)
class RecallResult:
    items: tuple[Recalled, ...]
    gap: bool
    best_relevance: float
    topic_reset: bool
    embed_ms: float
    total_ms: float


@dataclass
class _Trace:
    """Per-candidate bookkeeping while the cascade runs."""

    kinds: set[str] = field(default_factory=set)
    seed: str = ""
    path: tuple[Step, ...] = ()
    activation: float = 0.0  # what it can pass on
    received: float = 0.0  # what it got from other memories


def recall(
    store: Store,
    embedder: Embedder,
    namespace: str,
    request: RecallRequest,
    config: CascadeConfig = DEFAULT_CASCADE,
    *,
    limits: validate.Limits = validate.Limits(),  # noqa: B008 - immutable
) -> RecallResult:
    """The memories relevant to ``request.context``, best first (see the module docstring)."""
    started = time.perf_counter()
    validate.namespace(namespace)
    context = validate.content(request.context, limits, "context")
    k = validate.top_k(request.k, limits)
    for i, t in enumerate(request.memory_types):
        validate.choice(t, MEMORY_TYPES, f"memoryTypes[{i}]")
    scope = {"project": request.project, "session_id": request.session_id}
    statuses = ["active", "archived"] if request.include_archived else ["active"]

    speakers = _SPEAKERS.get((store, namespace))
    focused, named = cues.focus(context, speakers)
    seed_statuses = [*statuses, "superseded"]
    # Neither the full-text seeds nor the negative rules need the query vector: the engine
    # answers them while the model embeds the query (ONNX Runtime and the driver release the
    # GIL).
    fulltext_job = _POOL.submit(_fulltext, store, namespace, focused, seed_statuses, scope, config)
    flagged_job = _POOL.submit(_triggered, store, namespace, context, scope, config)
    t0 = time.perf_counter()
    query = embedder.embed([focused])[0]
    embed_ms = (time.perf_counter() - t0) * 1000

    retired: set[str] = set()
    # Every memory id the statements return comes with its element id: later statements look
    # memories up by it (direct, not through the id index) and check the id.
    eids: dict[str, str] = {}
    # The vector seeds are searched while the full-text ones may still be on their way.
    vector = _vector(store, namespace, query, config, seed_statuses, scope, retired, eids)
    fulltext, retired_ft, eids_ft = fulltext_job.result()
    retired |= retired_ft
    eids.update(eids_ft)
    if config.prf_weight > 0 and (vector or fulltext):
        query, moved = _feedback(store, namespace, query, vector, fulltext, config, eids)
        if config.prf_search:
            vector = _vector(store, namespace, query, config, seed_statuses, scope, retired, eids)
        elif moved:
            # The hits at hand re-ranked by their cosine to the moved query: what a second
            # search would return where it finds nothing new, without its cost.
            vector = moved

    traces = _seeds(store, namespace, vector, fulltext, config, retired, eids)
    embedding = as_vector(query)
    top_ft = max(fulltext.values(), default=0.0)
    scoring = _Scoring(
        # The speaker cue counts only when the context names one speaker: otherwise the
        # engine is spared reading every candidate's tags.
        params={"embedding": embedding, "with_speakers": len(named) == 1},
        relevance=lambda row: _relevance(
            float(row["cosine"]), fulltext.get(row["id"], 0.0), top_ft, config
        ),
        eids=eids,
    )
    scored: dict[str, Row] = {}
    if len(traces) > config.frontier:
        # The first hop expands the most relevant seeds only: score them before it.
        _score(store, namespace, list(traces), scoring, scored, traces)
    total = _active_count(store, namespace) if config.depth else 0
    _expand(store, namespace, traces, config, statuses, scope, total, scoring, scored)
    rest = [i for i in traces if i not in scored]
    if rest:  # no expansion ran, or a successor or a seed it did not reach
        _score(store, namespace, rest, scoring, scored, traces)
    rows = list(scored.values())
    ranked, best = _rank(rows, traces, fulltext, named, context, request, config, statuses)
    flagged = flagged_job.result()
    chosen, reset = _session_filter(store, namespace, request, query, ranked, k, config)
    items = _materialize(store, namespace, chosen, embedding, scoring.pairs([c.id for c in chosen]))
    items = _with_negatives(store, namespace, items, flagged, query)
    if request.include_history:
        items = _with_history(store, namespace, items)
    if not request.explain:
        items = [
            Recalled(memory=r.memory, score=r.score, flagged=r.flagged, history=r.history)
            for r in items
        ]
    return RecallResult(
        items=tuple(items),
        gap=best < config.min_relevance and not flagged,
        best_relevance=best,
        topic_reset=reset,
        embed_ms=embed_ms,
        total_ms=(time.perf_counter() - started) * 1000,
    )


def query_words(text: str) -> list[str]:
    """The distinct content words of ``text``, lowercased: nothing Lucene syntax could misread."""
    words = [w.lower() for w in _WORD.findall(text)]
    return [w for w in dict.fromkeys(words) if w not in STOPWORDS and len(w) > 1][:32]


def _fulltext(
    store: Store,
    ns: str,
    text: str,
    statuses: list[str],
    scope: dict[str, Any],
    config: CascadeConfig,
) -> tuple[dict[str, float], set[str], dict[str, str]]:
    """Full-text hits (id -> score), which of them are not active (superseded, archived), and
    their element ids."""
    words = query_words(text)
    frequencies = termstats.for_store(store)
    if frequencies is not None:
        words = frequencies.select(words, _POOL)
    query = " OR ".join(words)
    if not query or config.fulltext_hits <= 0:
        return {}, set(), {}
    k = config.fulltext_hits
    candidates = max(k * config.fulltext_oversample, k)
    while True:
        found_rows = store.read(
            "recall/fulltext_seeds",
            namespace=ns,
            query=query,
            statuses=statuses,
            candidates=candidates,
            **scope,
        )
        # One row, even with no hits (an aggregate over nothing); guard anyway.
        found: Row = found_rows[0] if found_rows else {"fetched": 0, "hits": []}
        rows = sorted(found["hits"], key=lambda h: (-float(h["score"]), h["id"]))[:k]
        truncated = int(found["fetched"]) >= candidates
        if len(rows) >= k or not truncated or candidates >= config.fulltext_max_candidates:
            break
        candidates = min(candidates * 10, config.fulltext_max_candidates)
    retired = {r["id"] for r in rows if r["status"] != "active"}
    return {r["id"]: float(r["score"]) for r in rows}, retired, {r["id"]: r["eid"] for r in rows}


def _vector(
    store: Store,
    ns: str,
    query: Any,
    config: CascadeConfig,
    statuses: list[str],
    scope: dict[str, Any],
    retired: set[str],
    eids: dict[str, str],
) -> dict[str, float]:
    k = max(config.vector_seeds, config.prf_depth)
    params = {"namespace": ns, "statuses": statuses, "embedding": as_vector(query), "k": k, **scope}
    rows = store.read(
        "recall/vector_seeds", candidates=max(k * store.dialect.vector_oversample, 100), **params
    )
    if len(rows) < k:
        # The index is shared by every namespace: when filtering leaves too few, scan exactly.
        rows = store.read("recall/vector_seeds_exact", **params)
    retired.update(r["id"] for r in rows if r["status"] != "active")
    eids.update((r["id"], r["eid"]) for r in rows)
    return {r["id"]: float(r["cosine"]) for r in rows}


def _feedback(
    store: Store,
    ns: str,
    query: Any,
    vector: dict[str, float],
    fulltext: dict[str, float],
    config: CascadeConfig,
    eids: dict[str, str],
) -> tuple[Any, dict[str, float]]:
    """Pseudo-relevance feedback: the query moved toward its most relevant memories, and the
    cosine to the moved query of every vector and full-text hit.

    The engine ranks the hits by relevance (a cosine is cheaper computed there than an
    embedding shipped), returns the prf_depth best embeddings and, per hit, its cosines to the
    query and to each of them, in one statement. For unit vectors, with c the mean of the
    feedback embeddings, cos(m, q + w c) = (cos(m, q) + w mean_i cos(m, e_i)) / |q + w c|.
    """
    top_ft = max(fulltext.values(), default=0.0)
    pool = [
        {"id": i, "eid": eids[i], "ft": fulltext.get(i, 0.0) / top_ft if top_ft > 0 else 0.0}
        for i in dict.fromkeys([*vector, *fulltext])
    ]
    found = store.read(
        "recall/feedback",
        namespace=ns,
        pool=pool,
        embedding=as_vector(query),
        alpha=config.alpha,
        depth=config.prf_depth,
    )
    vectors = found[0]["embeddings"] if found else []
    if not vectors:
        return query, {}
    moved = np.asarray(query) + config.prf_weight * np.mean(
        np.asarray(vectors, dtype=np.float32), axis=0
    )
    norm = float(np.linalg.norm(moved))
    weight = config.prf_weight / len(vectors)
    cosines = {
        memory_id: (float(cosine) + weight * float(feedback)) / norm
        for memory_id, cosine, feedback in found[0]["hits"]
    }
    return moved / norm, cosines


def _relevance(cosine: float, ft: float, top_ft: float, config: CascadeConfig) -> float:
    return config.alpha * cosine + (1 - config.alpha) * (ft / top_ft if top_ft > 0 else 0.0)


def _seeds(
    store: Store,
    ns: str,
    vector: dict[str, float],
    fulltext: dict[str, float],
    config: CascadeConfig,
    retired: set[str],
    eids: dict[str, str],
) -> dict[str, _Trace]:
    chosen: dict[str, set[str]] = {}
    for memory_id, cosine in sorted(vector.items(), key=lambda kv: -kv[1])[: config.vector_seeds]:
        if cosine >= config.min_seed_cosine:
            chosen.setdefault(memory_id, set()).add("vector")
    for memory_id in list(fulltext)[: config.fulltext_seeds]:
        chosen.setdefault(memory_id, set()).add("fulltext")
    if not chosen:
        # Nothing clears the floor: answer with the nearest memories anyway (the result is
        # flagged as a gap by its low relevance) rather than with nothing.
        for memory_id, _ in sorted(vector.items(), key=lambda kv: -kv[1])[: config.vector_seeds]:
            chosen.setdefault(memory_id, set()).add("vector")
    # Only a memory no longer active can have a successor (superseded, or archived after it).
    replaced = [i for i in chosen if i in retired]
    found = store.read("recall/successors", namespace=ns, ids=replaced) if replaced else []
    successors = {r["old_id"]: r["new_id"] for r in found}
    eids.update((r["new_id"], r["new_eid"]) for r in found)
    traces: dict[str, _Trace] = {}
    for memory_id, kinds in chosen.items():
        target = successors.get(memory_id, memory_id)
        trace = traces.setdefault(target, _Trace(seed=target))
        trace.kinds |= kinds | ({"successor"} if target != memory_id else set())
    return traces


@dataclass(frozen=True, kw_only=True)
class _Scoring:
    """How candidates are scored: the statements' parameters (query vector, whether speakers
    are read) and a candidate's relevance from its row."""

    params: dict[str, Any]
    relevance: Callable[[Row], float]
    eids: dict[str, str]  # memory id -> element id, of every memory a statement returned

    def pairs(self, ids: Sequence[str]) -> list[list[str]]:
        """[element id, id] of each memory: how statements look memories up."""
        return [[self.eids[i], i] for i in ids]


def _score(
    store: Store,
    ns: str,
    ids: list[str],
    scoring: _Scoring,
    scored: dict[str, Row],
    traces: dict[str, _Trace],
) -> None:
    """Fetch what ranking needs of ``ids`` into ``scored``; a seed starts with its relevance."""
    found = store.read("recall/scores", namespace=ns, ids=scoring.pairs(ids), **scoring.params)
    for hit in found[0]["rows"] if found else []:  # an aggregate answers one row, even over nothing
        row = dict(zip(_SCORED_KEYS, hit, strict=True))
        scored[row["id"]] = row
        traces[row["id"]].activation = scoring.relevance(row)


# The ranking fields of a memory, in the order recall/scores and recall/expand list them (both
# answer one row of lists: the embedded engine's cost per returned row is most of a small read).
SCORED_FIELDS = (
    "status", "memory_type", "created_at", "last_accessed", "confidence", "importance",
    "speakers", "cosine",
)  # fmt: skip
HIT_FIELDS = ("src", "dst", "eid", "type", "w", "via", "degree", *SCORED_FIELDS)
_FIRST_SCORED = HIT_FIELDS.index(SCORED_FIELDS[0])
_SCORED_KEYS = ("id", *SCORED_FIELDS)


def _expand(
    store: Store,
    ns: str,
    traces: dict[str, _Trace],
    config: CascadeConfig,
    statuses: list[str],
    scope: dict[str, Any],
    total: int,
    scoring: _Scoring,
    scored: dict[str, Row],
) -> None:
    """Spread activation breadth-first from the seeds (a seed starts with its relevance). A
    memory keeps the largest amount it receives from another memory and passes that on.

    Every memory reached comes back with its ranking fields (into ``scored``); the first hop
    also scores the seeds not scored yet (its 'SELF' rows), before spreading from them."""
    frontier = sorted(traces, key=lambda i: -traces[i].activation)
    unscored = [i for i in traces if i not in scored]
    for hop in range(config.depth):
        if not frontier:
            return
        expanded = frontier[: config.frontier if hop == 0 else config.later_frontier]
        found = store.read(
            "recall/expand",
            namespace=ns,
            frontier=scoring.pairs(expanded),
            scored_ids=scoring.pairs(unscored),
            statuses=statuses,
            edge_floor=config.edge_floor,
            fan_out=config.fan_out,
            max_tag_degree=config.max_tag_degree,
            max_cluster_size=config.max_cluster_size,
            **scope,
            **scoring.params,
        )
        unscored = []
        # A hit is a list in HIT_FIELDS order, read by position (~250 a recall).
        hits = [hit for r in found for hit in r["hits"]]
        for hit in hits:
            if len(hit) != len(HIT_FIELDS):  # the statement and HIT_FIELDS disagree
                raise ValueError(f"recall/expand: a hit of {len(hit)} fields")
            dst, kind = hit[1], hit[3]
            scoring.eids[dst] = hit[2]
            if kind == "SELF" or dst not in scored:
                scored[dst] = dict(zip(_SCORED_KEYS, (dst, *hit[_FIRST_SCORED:]), strict=True))
            if kind == "SELF":
                traces[dst].activation = scoring.relevance(scored[dst])
        touched: dict[str, float] = {}
        for src, dst, _, kind, w, via, degree, *_ in hits:
            if kind == "SELF":
                continue
            source = traces[src]
            weight = _edge_weight(kind, w, degree, config, total)
            amount = source.activation * weight * config.hop_decay
            target = traces.get(dst)
            if target is None:
                target = traces[dst] = _Trace(kinds={"expanded"})
            if amount <= target.received:
                continue
            target.received = amount
            if "expanded" in target.kinds:
                step = Step(from_id=src, to_id=dst, type=kind, via=via or "", weight=weight)
                target.seed, target.path = source.seed, (*source.path, step)
            if amount > target.activation:
                target.activation = amount
                touched[dst] = amount
        frontier = sorted(touched, key=lambda i: -touched[i])


# Active memories per (store, namespace): it only scales tag rarity, log(n / degree) / log(n),
# which moves by under 1% when n moves by 10% (n >= 1,000, degree <= max_tag_degree), so a
# count somewhat old is as good as an exact one. Counting costs ~n records read (100k memories:
# ~0.5 s of engine time), so a count is kept 1,000 times as long as it took (a small namespace
# is recounted every few seconds, 100k every ~8 minutes), an expired one still used while a
# fresh one is counted off the query's path.
_SIZES: Revalidating[tuple[Store, str], int] = Revalidating(
    lambda key: int(key[0].read("memory/count", namespace=key[1], statuses=["active"])[0]["count"]),
    refresh=_POOL,
)
# The namespace's speakers (the speaker cue): read the same way, so a new speaker counts as a
# cue within seconds (5 s for a read that takes ~1 ms), not on the very next recall.
_SPEAKERS: Revalidating[tuple[Store, str], list[str]] = Revalidating(
    lambda key: [r["name"] for r in key[0].read("recall/speakers", namespace=key[1])],
    refresh=_POOL,
)


def _active_count(store: Store, namespace: str) -> int:
    return _SIZES.get((store, namespace))


def _edge_weight(kind: str, w: Any, degree: Any, config: CascadeConfig, total: int) -> float:
    if kind == "RELATES_TO":
        return float(w)
    if kind == "HAS_TAG":
        degree = max(int(degree), 1)
        rarity = math.log(total / degree) / math.log(total) if total > 1 and degree < total else 0.0
        return config.has_tag_weight * rarity
    if kind == "IN_CLUSTER":
        return config.in_cluster_weight
    if kind == "SUPERSEDES":
        return config.supersedes_weight
    return config.other_weight


@dataclass(frozen=True, slots=True, kw_only=True)
class _Scored:
    """A ranked candidate before its full memory is fetched: its score and the parts of it.
    Its Explanation is built only for what is returned (a recall ranks ~200 candidates)."""

    id: str
    score: float
    trace: _Trace
    cosine: float
    fulltext: float
    relevance: float
    speaker: float
    time: float
    recency: float
    confidence: float
    importance: float

    @property
    def explanation(self) -> Explanation:
        trace = self.trace
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
        )


def _rank(
    rows: list[Row],
    traces: dict[str, _Trace],
    fulltext: dict[str, float],
    named: frozenset[str],
    context: str,
    request: RecallRequest,
    config: CascadeConfig,
    statuses: list[str],
) -> tuple[list[_Scored], float]:
    """Score the candidates from their `recall/scores` rows, best first."""
    top_ft = max(fulltext.values(), default=0.0)
    windows = cues.WindowIndex(
        cues.date_windows(context, config.time_slack_days) if config.time_weight > 0 else []
    )
    now = time.time()
    scored: list[_Scored] = []
    best = 0.0
    for row in rows:
        memory_id = row["id"]
        if row["status"] not in statuses or (
            request.memory_types and row["memory_type"] not in request.memory_types
        ):
            continue
        trace = traces[memory_id]
        cosine, ft = float(row["cosine"]), fulltext.get(memory_id, 0.0)
        rel = _relevance(cosine, ft, top_ft, config)
        best = max(best, rel)
        speaker = (
            1.0
            if len(named) == 1 and {t[len(SPEAKER_PREFIX) :] for t in row["speakers"] or ()} & named
            else 0.0
        )
        when = 1.0 if windows and parse_iso(row["created_at"]) in windows else 0.0
        recency = _recency(row["last_accessed"], now, config)
        confidence = float(row["confidence"] or 0.0)
        importance = float(row["importance"] or 0.0)
        base = (
            rel
            + config.activation_weight * trace.received
            + config.speaker_weight * speaker
            + config.time_weight * when
        )
        score = base * recency * confidence * (1 + config.importance_weight * importance)
        scored.append(
            _Scored(
                id=memory_id,
                score=score,
                trace=trace,
                cosine=cosine,
                fulltext=ft,
                relevance=rel,
                speaker=speaker,
                time=when,
                recency=recency,
                confidence=confidence,
                importance=importance,
            )
        )
    scored.sort(key=lambda r: (-r.score, r.id))
    return scored, best


def _materialize(
    store: Store,
    ns: str,
    chosen: Sequence[_Scored],
    embedding: list[float],
    pairs: list[list[str]],
) -> list[Recalled]:
    """The full memories of the chosen candidates (``pairs``: their [element id, id]), in
    their ranked order."""
    if not chosen:
        return []
    rows = store.read("recall/candidates", namespace=ns, ids=pairs, embedding=embedding)
    by_id = {r["memory"]["id"]: to_memory(r) for r in rows}
    return [
        Recalled(memory=by_id[c.id], score=c.score, explanation=c.explanation)
        for c in chosen
        if c.id in by_id
    ]


def _recency(last_accessed: str | None, now: float, config: CascadeConfig) -> float:
    """1 + boost x e^(-hours since last access / hours); a never-used memory gets no boost."""
    if not last_accessed or config.recency_boost <= 0:
        return 1.0
    hours = max(0.0, (now - parse_iso(last_accessed).timestamp()) / 3600)
    return 1 + config.recency_boost * math.exp(-hours / config.recency_hours)


def pattern_matches(pattern: str, context: str) -> bool:
    """A trigger pattern: ``re:<regex>`` or words that must all appear (case-insensitive)."""
    if pattern.startswith("re:"):
        try:
            return re.search(pattern[3:], context, re.IGNORECASE) is not None
        except re.error:
            return False
    words = [w.lower() for w in _WORD.findall(pattern)]
    lowered = context.lower()
    return bool(words) and all(re.search(rf"\b{re.escape(w)}\b", lowered) for w in words)


def _triggered(
    store: Store, ns: str, context: str, scope: dict[str, Any], config: CascadeConfig
) -> list[list[str]]:
    """[element id, id] of each negative memory whose trigger patterns match ``context``."""
    rows = store.read(
        "recall/negative_rules", namespace=ns, limit=config.negative_rules_limit, **scope
    )
    return [
        [r["eid"], r["id"]]
        for r in rows
        if any(pattern_matches(p, context) for p in r["patterns"] or ())
    ]


def _with_negatives(
    store: Store, ns: str, items: list[Recalled], flagged: list[list[str]], query: Any
) -> list[Recalled]:
    if not flagged:
        return items
    present = {r.memory.id: r for r in items}
    rows = store.read("recall/candidates", namespace=ns, ids=flagged, embedding=as_vector(query))
    head = []
    for row in rows:
        memory = to_memory(row)
        old = present.pop(memory.id, None)
        explanation = old.explanation if old else None
        head.append(
            Recalled(
                memory=memory,
                score=old.score if old else float(row["cosine"]),
                flagged=True,
                explanation=explanation,
            )
        )
    return head + [r for r in items if r.memory.id in present]


def _session_filter(
    store: Store,
    ns: str,
    request: RecallRequest,
    query: Any,
    ranked: list[_Scored],
    k: int,
    config: CascadeConfig,
) -> tuple[list[_Scored], bool]:
    """Within a session, what was surfaced already is not repeated unless it still ranks in the
    top ``resurface_top``; a change of topic clears that memory."""
    if not request.session_id:
        return ranked[:k], False
    uid = f"{ns}|{request.session_id}"
    state = store.read("recall/session_state", uid=uid)
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
    store.write(
        "recall/session_save",
        uid=uid,
        namespace=ns,
        session_id=request.session_id,
        context_embedding=as_vector(query),
        surfaced=merged,
        now=now_iso(),
    )
    return chosen, reset


def _with_history(store: Store, ns: str, items: Sequence[Recalled]) -> list[Recalled]:
    rows = store.read("recall/history", namespace=ns, ids=[r.memory.id for r in items])
    history: dict[str, list[HistoryEntry]] = {}
    for row in rows:
        history.setdefault(row["current_id"], []).append(
            HistoryEntry(
                id=row["id"],
                content=row["content"],
                created_at=row["created_at"],
                superseded_at=row["superseded_at"],
                reason=row["reason"],
            )
        )
    return [
        Recalled(
            memory=r.memory,
            score=r.score,
            flagged=r.flagged,
            explanation=r.explanation,
            history=tuple(history.get(r.memory.id, ())),
        )
        for r in items
    ]
