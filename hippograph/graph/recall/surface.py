"""The answer stage: the chosen memories read in full, negative memories whose trigger patterns
match the context put first (flagged), nothing else where the context is a gap, what the
verifier rejected dropped or marked, and each item's supersession history when asked for."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from hippograph.graph.memories import to_memory
from hippograph.graph.recall.candidates import Pool, Query
from hippograph.graph.recall.rank import Scored
from hippograph.graph.recall.recall_config import CascadeConfig
from hippograph.graph.recall.results import HistoryEntry, Recalled, RecallResult, Verdict
from hippograph.graph.recall.verify import Verifier
from hippograph.graph.store.store import Store
from hippograph.graph.store.store import vector as as_vector
from hippograph.graph.text import fulltext


def answer(
    q: Query, pool: Pool, chosen: Sequence[Scored], best: float, verifier: Verifier | None
) -> RecallResult:
    """What the recall returns of ``chosen`` (``best``: the best relevance among the candidates;
    ``verifier``: checks the best candidates when the request asks). Its topic_reset and
    total_ms are the caller's."""
    request = q.request
    embedding = as_vector(pool.query)
    items = materialize(q.store, q.namespace, chosen, embedding, pool.pairs([c.id for c in chosen]))
    flagged = pool.negatives.result() if pool.negatives is not None else []
    items = with_negatives(q.store, q.namespace, items, flagged, pool.query)
    weak = best < q.config.answer.min_relevance
    if weak and not request.include_gap:
        items = [r for r in items if r.flagged]  # nothing relevant: only the rules that trigger
    verdict, verification = None, "not requested"
    if request.verify:
        if verifier is None:
            verification = "unverified: no LLM is configured"
        else:
            verdict = verifier.verify(q.context, items)
            verification = verdict.status
            items = _apply_verdict(items, verdict, request.rejected)
    if request.include_history:
        items = with_history(q.store, q.namespace, items)
    if not request.explain:
        items = [replace(r, explanation=None) for r in items]
    return RecallResult(
        items=tuple(items),
        gap=weak and not flagged,
        verification=verification,
        verdict=verdict,
        best_relevance=best,
        topic_reset=False,
        embed_ms=pool.embed_ms,
        total_ms=0.0,
    )


REJECTED = ("drop", "flag")


def _apply_verdict(items: list[Recalled], verdict: Verdict, mode: str) -> list[Recalled]:
    """Drop or mark what the verifier rejected (an unverified verdict changes nothing)."""
    if not verdict.verified or not verdict.rejected:
        return items
    rejected = set(verdict.rejected)
    if mode == "drop":
        return [r for r in items if r.memory.id not in rejected]
    return [replace(r, rejected=True) if r.memory.id in rejected else r for r in items]


def materialize(
    store: Store,
    ns: str,
    chosen: Sequence[Scored],
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


def pattern_matches(pattern: str, context: str) -> bool:
    """A trigger pattern: ``re:<regex>`` or words that must all appear (case-insensitive)."""
    if pattern.startswith("re:"):
        try:
            return re.search(pattern[3:], context, re.IGNORECASE) is not None
        except re.error:
            return False
    words = fulltext.tokens(pattern)
    lowered = context.lower()
    return bool(words) and all(re.search(rf"\b{re.escape(w)}\b", lowered) for w in words)


def triggered(
    store: Store, ns: str, context: str, scope: dict[str, Any], config: CascadeConfig
) -> list[list[str]]:
    """[element id, id] of each negative memory whose trigger patterns match ``context``."""
    rows = store.read(
        "recall/negative_rules", namespace=ns, limit=config.answer.negative_rules_limit, **scope
    )
    return [
        [r["eid"], r["id"]]
        for r in rows
        if any(pattern_matches(p, context) for p in r["patterns"] or ())
    ]


def with_negatives(
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


def with_history(store: Store, ns: str, items: Sequence[Recalled]) -> list[Recalled]:
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
