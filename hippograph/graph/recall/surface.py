"""The answer stage: the chosen memories read in full, negative memories whose trigger patterns
match the context put first (flagged), nothing else where the context is a gap, what the
verifier rejected dropped or marked, and each item's supersession history when asked for."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from hippograph.graph.memories import to_memory
from hippograph.graph.recall.candidates import Pool, Query
from hippograph.graph.recall.rank import Scored
from hippograph.graph.recall.recall_config import CascadeConfig
from hippograph.graph.recall.results import HistoryEntry, Recalled, RecallResult, Verdict
from hippograph.graph.recall.verify import Verifier
from hippograph.graph.store.store import Store
from hippograph.graph.store.store import vector as as_vector
from hippograph.graph.text import fulltext, statements, stopwords, updates


def answer(
    q: Query, pool: Pool, chosen: Sequence[Scored], best: float, verifier: Verifier | None
) -> RecallResult:
    """What the recall returns of ``chosen`` (``best``: the best relevance among the candidates;
    ``verifier``: checks the best candidates when the request asks). Its topic_reset and
    total_ms are the caller's."""
    request = q.request
    embedding = as_vector(pool.query)
    pairs = pool.pairs([c.id for c in chosen])
    vectors: dict[str, Any] = {}
    items = materialize(q.store, q.namespace, chosen, embedding, pairs, pool.standing, vectors)
    if updates.asks_present(q.context):
        items = updates_first(items, vectors, q.config.answer.update_near)
    if q.config.answer.bridge:
        items = bridged(q.context, items)
    flagged = pool.negatives.result() if pool.negatives is not None else []
    items = with_negatives(q.store, q.namespace, items, flagged, pool.query)
    items = scored_in_order(items)
    # A standing instruction or constraint whose condition the context names makes it no gap:
    # the context asks about what the person told how to handle ("Which libraries does this
    # project use?" after "Always include version numbers when I ask about dependencies"),
    # though its own memories may match it weakly.
    applying = any(r.applies for r in items)
    weak = best < q.config.answer.min_relevance and not applying
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
    applying: Collection[str] = (),
    vectors: dict[str, Any] | None = None,
) -> list[Recalled]:
    """The full memories of the chosen candidates (``pairs``: their [element id, id]), in
    their ranked order; ``applying``: the ids of standing memories whose condition matched;
    ``vectors`` receives their embeddings by id."""
    if not chosen:
        return []
    rows = store.read("recall/candidates", namespace=ns, ids=pairs, embedding=embedding)
    by_id = {r["memory"]["id"]: to_memory(r) for r in rows}
    if vectors is not None:
        vectors.update((r["memory"]["id"], r["embedding"]) for r in rows)
    return [
        Recalled(
            memory=by_id[c.id],
            score=c.score,
            applies=c.id in applying,
            explanation=c.explanation,
        )
        for c in chosen
        if c.id in by_id
    ]


def scored_in_order(items: list[Recalled]) -> list[Recalled]:
    """``items`` with each score raised to the best score below it: what was put ahead of
    better-scored memories (a rule, what applies, a newer value, a second hop) is, in this
    answer, as relevant as the best it precedes, and a client reading scores reads the order
    the answer gives."""
    best = float("-inf")
    kept: list[Recalled] = []
    for item in reversed(items):
        best = max(best, item.score)
        kept.append(item if item.score >= best else replace(item, score=best))
    return kept[::-1]


def updates_first(items: list[Recalled], vectors: dict[str, Any], near: float) -> list[Recalled]:
    """``items`` with each memory that tells a change ("our return flight is now on the 23rd")
    moved above the older memories it updates: ranked above it, said before it, and at least
    ``near`` close or stating another value of the same attribute of the same subject ("lives
    in Valencia" / "moved to Bilbao", far apart as embeddings when the turns say more). The
    write path supersedes when it finds the memory it changes among the new one's neighbours;
    this orders what it could not, for a question about how things are now."""
    if near <= 0 or len(items) < 2:
        return items
    order = list(items)
    for item in sorted(items, key=lambda r: r.memory.created_at):
        mine = vectors.get(item.memory.id)
        if item.flagged or not updates.tells_update(item.memory.content):
            continue
        at = order.index(item)
        older = [
            i
            for i, other in enumerate(order[:at])
            if not other.flagged
            and not other.applies
            and other.memory.created_at < item.memory.created_at
            and (
                _restates_attribute(item.memory.content, other.memory.content)
                or (
                    mine is not None
                    and vectors.get(other.memory.id) is not None
                    and _cosine(mine, vectors[other.memory.id]) >= near
                )
            )
        ]
        if older:
            order.insert(older[0], order.pop(at))
    return order


def bridged(question: str, items: list[Recalled]) -> list[Recalled]:
    """``items`` with the second hop of the best answer put right after it: a question about
    one thing ("who should Hiro call about his limping cat?") is answered by a memory naming
    another ("Pepper is Hiro's cat"), and what it asks is in a memory about that other
    ("Dr. Alvarez is Pepper's vet"), which shares no word with the question and ranks lower.
    The hop is the memory ranked below that shares the most of the best answer's words the
    question does not hold (a name counts twice), at least ``BRIDGE_MIN``, and none of the
    question's."""
    lead = next((i for i, r in enumerate(items) if not r.flagged and not r.applies), None)
    if lead is None or lead + 2 >= len(items):
        return items
    asked = _content(question)
    head = items[lead].memory.content
    names = _names(head) - asked
    terms = _content(head) - asked
    who = _ASKS_WHO.search(question) is not None
    if not terms:
        return items
    best, best_score = None, 0.0
    for i in range(lead + 2, len(items)):
        if items[i].flagged or items[i].applies:
            continue
        own = _content(items[i].memory.content)
        if own & asked:
            continue  # it answers the question itself: ranked as it is
        score = len(own & names) * 2 + len(own & terms)
        if score and who and _names(items[i].memory.content[:40]):
            score += 1  # a "who" question: a memory about a named person answers it
        if score > best_score:
            best, best_score = i, score
    if best is None or best_score < BRIDGE_MIN:
        return items
    order = list(items)
    order.insert(lead + 1, order.pop(best))
    return order


BRIDGE_MIN = 2  # a shared name, or two shared words


def _content(text: str) -> set[str]:
    """The content words of ``text`` without its speaker label (who speaks is no bridge)."""
    words = fulltext.words(_LABEL.sub("", text, count=1))
    return {w for w in words if w not in stopwords.STOPWORDS} - _SPEAKERS


def _names(text: str) -> set[str]:
    """The names ``text`` holds: its capitalised words that are no function word ("Pepper",
    "Lindqvist"; not "The"), its speaker label ("User: ...") and who speaks aside."""
    found = {
        w for name in _NAME.findall(_LABEL.sub("", text, count=1)) for w in fulltext.words(name)
    }
    return found - stopwords.STOPWORDS - _SPEAKERS


_NAME = re.compile(r"\b[A-Z][\w'-]+")
_LABEL = re.compile(r"^[A-Z][\w .'-]{0,40}:\s+")
_SPEAKERS = frozenset({"user", "assistant"})
_ASKS_WHO = re.compile(r"\bwho(?:m|se)?\b", re.IGNORECASE)


def _restates_attribute(text: str, other: str) -> bool:
    """``text`` gives another value of an attribute ``other`` states, of the same subject."""
    if statements.subject(text) != statements.subject(other):
        return False
    mine = dict(statements.attributes(text))
    return any(key in mine and mine[key] != value for key, value in statements.attributes(other))


def _cosine(a: Any, b: Any) -> float:
    x, y = np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)
    return float(x @ y / max(float(np.linalg.norm(x) * np.linalg.norm(y)), 1e-12))


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
                applies=old.applies if old else False,
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
                valid_until=row["valid_until"],
                reason=row["reason"],
            )
        )
    return [replace(r, history=tuple(history.get(r.memory.id, ()))) for r in items]
