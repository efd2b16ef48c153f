"""What the graph learns from how memories are used. Call these off the query's critical path
(after the response is sent, e.g. a background task) or from an explicit client report.

Being returned by a recall is not being used: a memory recall ranked high once would otherwise
rank higher the next time, relevant or not (a memory at cosine 0.07 to its query went from
confidence 0.04 to 0.96 and ranked first on the next identical recall). So reinforcement
(access count, confidence, the recency boost of ranking, co-use links) comes from evidence only:

* ``use`` / ``after_recall``: memories the client reports as used (or a configured LLM judged
  relevant to the context) count an access, which resets their decay clock and raises the
  access multiplier; memories used together get a RELATES_TO link (kind ``co_use``), created
  weak or reinforced (+delta, capped, ``last_reinforced_at`` stamped).
* ``feedback``: helpful raises the memory's base confidence and confirms it (a speculative
  memory rated helpful is never archived as unconfirmed); unhelpful lowers the base gently.
* restatement: the write path reinforces a memory said again (NOOP: strength + 1 and
  ``last_reinforced_at``, which decay counts from).
* ``returned``: what every recall records, a diagnostic only: ``returned_count`` and
  ``last_returned_at``, which neither ranking nor decay nor consolidation read.
* ``log_gap`` / ``list_gaps``: contexts for which recall found nothing relevant, one node per
  distinct context and namespace, counted.

Confidence written here uses the same formula as the ``decay`` job
(``decay.memory_confidence``), so the job recomputing it later agrees.
"""

from __future__ import annotations

import hashlib
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations
from typing import Any

from hippograph.graph import clock, memories, validate
from hippograph.graph.errors import InvalidInput, NotFound
from hippograph.graph.model import normalize_content, parse_iso, to_iso
from hippograph.graph.store.store import Row, Store, Tx
from hippograph.graph.upkeep.decay import (
    DEFAULT_DECAY,
    DEFAULT_EDGE_LIFECYCLE,
    DecayConfig,
    EdgeLifecycleConfig,
    memory_confidence,
)

MAX_GAP_CONTEXT = 2000
MAX_USED = 200  # ids in one report of use: a recall's worth (MAX_K)


@dataclass(frozen=True, kw_only=True)
class FeedbackConfig:
    """Tunables of post-retrieval maintenance.

    link_top: how many of the memories used together (in the order given) are linked pairwise.
    link_weight, link_confidence: a new co-use link's weight and starting confidence
        (above the recall floor of 0.2, well below an explicit link's 1.0).
    helpful_delta: added to the base confidence on helpful feedback (capped at 1).
    unhelpful_factor: the base confidence is multiplied by this on unhelpful feedback.
    """

    link_top: int = 5
    link_weight: float = 0.5
    link_confidence: float = 0.3
    helpful_delta: float = 0.05
    unhelpful_factor: float = 0.9
    edges: EdgeLifecycleConfig = DEFAULT_EDGE_LIFECYCLE
    decay: DecayConfig = DEFAULT_DECAY

    def __post_init__(self) -> None:
        if not 0 <= self.link_top <= 50:
            raise InvalidInput("link_top", "must be in 0..50", limit=50)
        if not 0.0 < self.unhelpful_factor <= 1.0:
            raise InvalidInput("unhelpful_factor", "must be in (0, 1]")


DEFAULT_FEEDBACK = FeedbackConfig()


@dataclass(frozen=True, kw_only=True)
class RecallEffects:
    links_created: int
    links_reinforced: int
    memories_touched: int


@dataclass(frozen=True, kw_only=True)
class Rating:
    memory_id: str
    confidence: float
    initial_confidence: float
    helpful_count: int
    unhelpful_count: int


@dataclass(frozen=True, kw_only=True)
class Gap:
    id: str
    namespace: str
    context: str
    best_score: float | None
    count: int
    first_at: str
    last_at: str


def use(
    store: Store,
    namespace: str,
    memory_ids: Sequence[str],
    now: datetime | None = None,
    *,
    config: FeedbackConfig = DEFAULT_FEEDBACK,
) -> RecallEffects:
    """Memories used together (for one answer, one turn): each counts an access, and the first
    ``link_top`` are linked pairwise as belonging together. Ids of other namespaces or of
    memories no longer active are ignored (counted out of ``memories_touched``). More than
    ``MAX_USED`` ids, or one that is not a UUID, raise InvalidInput naming ``memoryIds``."""
    if len(memory_ids) > MAX_USED:
        raise InvalidInput(
            "memoryIds", f"{len(memory_ids)} ids; at most {MAX_USED} at once", limit=MAX_USED
        )
    return after_recall(store, namespace, memory_ids, memory_ids, now, config=config)


def after_recall(
    store: Store,
    namespace: str,
    linked_ids: Sequence[str],
    used_ids: Sequence[str],
    now: datetime | None = None,
    *,
    config: FeedbackConfig = DEFAULT_FEEDBACK,
) -> RecallEffects:
    """Apply the evidence of one use: link what belongs together, count the uses.

    linked_ids: memories shown by evidence to belong together (used together), best first;
        the first ``link_top`` are linked pairwise (new links are created in a fixed
        direction, existing ones in either direction are reinforced). Never just what a
        recall returned: see the module docstring.
    used_ids: memories actually used: access_count + 1, last_accessed = now, and confidence
        recomputed at age 0.
    now: the instant to stamp (default: the current time).
    """
    return after_recalls(store, namespace, [(linked_ids, used_ids)], now, config=config)


def after_recalls(
    store: Store,
    namespace: str,
    recalls: Sequence[tuple[Sequence[str], Sequence[str]]],
    now: datetime | None = None,
    *,
    config: FeedbackConfig = DEFAULT_FEEDBACK,
) -> RecallEffects:
    """``after_recall`` for several uses of one namespace, (linked, used) each, merged into
    one transaction of the same four statements as one: a pair several uses link is
    reinforced once per use (a new one is created, then reinforced by the others), a memory
    several used counts each use. The result equals applying them one after another."""
    validate.namespace(namespace)
    stamp = to_iso(now or clock.now())
    pair_times: Counter[tuple[str, str]] = Counter()
    use_times: Counter[str] = Counter()
    for linked_ids, used_ids in recalls:
        top = list(dict.fromkeys(validate.memory_id(i, "memoryIds") for i in linked_ids))
        used = list(dict.fromkeys(validate.memory_id(i, "memoryIds") for i in used_ids))
        pair_times.update(
            (min(a, b), max(a, b)) for a, b in combinations(top[: config.link_top], 2)
        )
        use_times.update(used)
    if not pair_times and not use_times:
        return RecallEffects(links_created=0, links_reinforced=0, memories_touched=0)
    pairs = [{"a": a, "b": b, "times": n} for (a, b), n in pair_times.items()]
    uses = [{"id": i, "times": n} for i, n in use_times.items()]
    return store.write_tx(lambda tx: _recall_effects(tx, namespace, pairs, uses, stamp, config))


def returned(
    store: Store,
    namespace: str,
    recalls: Sequence[Sequence[str]],
    now: datetime | None = None,
) -> int:
    """Count what recalls returned (``returned_count``, ``last_returned_at``), for diagnostics
    only: nothing that ranks, decays or archives reads these. Returns the memories touched."""
    validate.namespace(namespace)
    times: Counter[str] = Counter()
    for ids in recalls:
        times.update({validate.memory_id(i, "memoryIds") for i in ids})
    if not times:
        return 0
    rows = [{"id": i, "times": n} for i, n in times.items()]
    stamp = to_iso(now or clock.now())
    found = store.write("feedback/touch_returned", namespace=namespace, rows=rows, now=stamp)
    return int(found[0]["touched"])


def _recall_effects(
    tx: Tx,
    namespace: str,
    pairs: list[dict[str, Any]],
    uses: list[dict[str, Any]],
    stamp: str,
    config: FeedbackConfig,
) -> RecallEffects:
    created = reinforced = 0
    reinforce = {"namespace": namespace, "delta": config.edges.reinforce_delta,
                 "cap": config.edges.cap, "now": stamp}  # fmt: skip
    if pairs:
        found = tx.run("feedback/reinforce_links", pairs=pairs, **reinforce)
        seen = {(r["a"], r["b"]) for r in found}
        missing = [p for p in pairs if (p["a"], p["b"]) not in seen]
        reinforced = len(seen)
        if missing:
            created = int(
                tx.run(
                    "feedback/create_links",
                    namespace=namespace,
                    pairs=missing,
                    weight=config.link_weight,
                    confidence=config.link_confidence,
                    now=stamp,
                )[0]["linked"]
            )
            # Created by the first recall that surfaced the pair, reinforced by the others.
            again = [{**p, "times": p["times"] - 1} for p in missing if p["times"] > 1]
            if again:
                tx.run("feedback/reinforce_links", pairs=again, **reinforce)
    touched = (
        tx.run("feedback/touch_used", namespace=namespace, uses=uses, now=stamp) if uses else []
    )
    if touched:
        rows = [_confidence_row(r, stamp, config.decay) for r in touched]
        tx.run("feedback/set_confidence", namespace=namespace, rows=rows)
    return RecallEffects(
        links_created=created, links_reinforced=reinforced, memories_touched=len(touched)
    )


def feedback(
    store: Store,
    namespace: str,
    memory_id: str,
    helpful: bool,
    now: datetime | None = None,
    *,
    log: bool = True,
) -> Rating:
    """Rate a memory. Helpful: base confidence + ``helpful_delta`` (capped at 1), confirmed, and
    counted as a use. Unhelpful: base confidence x ``unhelpful_factor`` (``DEFAULT_FEEDBACK``'s:
    no caller tunes them). Raises NotFound.
    ``log``: append the rating to the namespace's edit log (``memories.log_edit``) for
    ``rebuild``; False when it replays one."""
    validate.namespace(namespace)
    memory_id = validate.memory_id(memory_id, "memoryId")
    stamp = to_iso(now or clock.now())

    def work(tx: Tx) -> Rating:
        rows = tx.run(
            "feedback/rate", namespace=namespace, id=memory_id, helpful=helpful, now=stamp
        )
        if not rows:
            raise NotFound("memory", memory_id, field="memoryId")
        r = dict(rows[0])
        initial = float(r["initial"])
        if helpful:
            r["initial"] = min(1.0, initial + DEFAULT_FEEDBACK.helpful_delta)
            r["last_accessed"] = stamp
        else:
            r["initial"] = initial * DEFAULT_FEEDBACK.unhelpful_factor
        row = _confidence_row(r, stamp, DEFAULT_FEEDBACK.decay)
        row["confirmed_at"] = stamp if helpful else None
        tx.run("feedback/set_confidence", namespace=namespace, rows=[row])
        if log:
            args = {"memory_id": memory_id, "helpful": helpful, "at": stamp}
            memories.log_edit(tx, namespace, "feedback", args)
        return Rating(
            memory_id=memory_id,
            confidence=row["confidence"],
            initial_confidence=row["initial"],
            helpful_count=int(r["helpful_count"]),
            unhelpful_count=int(r["unhelpful_count"]),
        )

    return store.write_tx(work)


def _confidence_row(r: Row, now: str, config: DecayConfig) -> dict[str, Any]:
    used = [
        parse_iso(t) for t in (r["learned_at"], r["last_accessed"], r["last_reinforced_at"]) if t
    ]
    confidence = memory_confidence(
        initial=float(r["initial"]),
        memory_type=str(r["memory_type"]),
        provenance=str(r["provenance"]),
        last_used_at=max(used),
        now=parse_iso(now),
        access_count=int(r["access_count"]),
        trust=float(r["trust"]),
        config=config,
    )
    return {
        "id": r["id"],
        "confidence": confidence,
        "initial": float(r["initial"]),
        "last_accessed": r["last_accessed"],
        "confirmed_at": None,
    }


def log_gap(
    store: Store,
    namespace: str,
    context: str,
    best_score: float | None,
    now: datetime | None = None,
) -> str:
    """Record that recall found nothing relevant for ``context``; returns the gap's id.

    The same context (after normalisation) in the same namespace is one gap, counted. Pass the
    context after the privacy filter: it is stored as given, cut to 2000 characters.
    best_score: the best relevance recall reached (None when it found nothing at all).
    """
    validate.namespace(namespace)
    text = (context or "").strip()
    if not text:
        raise InvalidInput("context", "must not be empty")
    normal = normalize_content(text).rstrip("?").strip()
    digest = hashlib.sha256(normal.encode("utf-8")).hexdigest()
    row = store.write(
        "feedback/gap_log",
        key=f"{namespace}|{digest}",
        id=str(uuid.uuid4()),
        namespace=namespace,
        context=text[:MAX_GAP_CONTEXT],
        best_score=best_score,
        now=to_iso(now or clock.now()),
    )[0]
    return str(row["id"])


def list_gaps(store: Store, namespace: str, first: int = 20) -> list[Gap]:
    """The namespace's gaps, most recently seen first."""
    validate.namespace(namespace)
    if not 1 <= first <= 500:
        raise InvalidInput("first", f"{first} is outside 1..500", limit=500)
    rows = store.read("feedback/gap_list", namespace=namespace, limit=first)
    return [
        Gap(
            id=r["id"],
            namespace=namespace,
            context=r["context"],
            best_score=r["best_score"],
            count=int(r["count"]),
            first_at=r["first_at"],
            last_at=r["last_at"],
        )
        for r in rows
    ]


# Base confidence kept per rejection by relevance verification: about a tenth of an unhelpful
# rating's step, so one judgement never sinks a memory (a model can be wrong).
REJECT_FACTOR = 0.97


def reject(
    store: Store, namespace: str, recalls: Sequence[Sequence[str]], now: datetime | None = None
) -> int:
    """Memories relevance verification rejected (per recall, the ids): each rejection keeps
    ``REJECT_FACTOR`` of the base and current confidence and is counted
    (``rejected_count``, ``last_rejected_at``). Returns the memories touched."""
    validate.namespace(namespace)
    times: Counter[str] = Counter()
    for ids in recalls:
        times.update({validate.memory_id(i, "memoryIds") for i in ids})
    if not times:
        return 0
    rows = [{"id": i, "times": n, "factor": REJECT_FACTOR**n} for i, n in times.items()]
    stamp = to_iso(now or clock.now())
    found = store.write("feedback/reject", namespace=namespace, rows=rows, now=stamp)
    return int(found[0]["touched"]) if found else 0
