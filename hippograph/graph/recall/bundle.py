"""A context bundle: what a recall found, as text ready to paste into a prompt, within a token
budget.

Sections, in reading order: the namespace's core block (``graph.upkeep.core``: the memories
always in view, at most ``CORE_SHARE`` of the budget), the negative rules whose trigger patterns
match (the last to go), then the recalled memories grouped by kind (corrections, preferences, facts,
procedures), each group in time order, each memory with the versions it replaced. Items are
chosen by rank: the best-ranked first, the lowest-ranked dropped first; the first memory that no
longer fits whole is cut at a token boundary (marked with an ellipsis) when a useful part of it
fits, and nothing ranked below it is added. A recall that found nothing relevant (a gap) puts no
memories in the bundle, only the rules that trigger. Each item keeps a short reference ``[n]``
in the text and its memory id in ``items``, for feedback.

The rendered text is counted whole with ``TokenCounter`` (the embedding model's tokenizer), and
never exceeds the budget.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace

from hippograph.graph import tracing, validate
from hippograph.graph.errors import InvalidInput
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.models.tokens import TokenCounter
from hippograph.graph.recall import retrieval
from hippograph.graph.recall.recall_config import BUNDLE_CANDIDATES, BUNDLE_FORMATS, CascadeConfig
from hippograph.graph.recall.recipes import DEFAULT_CASCADE
from hippograph.graph.recall.results import HistoryEntry, Recalled, RecallRequest, RecallResult
from hippograph.graph.store.store import Store
from hippograph.graph.upkeep import core

FORMATS = BUNDLE_FORMATS
MAX_BUDGET = 32_768
# Candidates a bundle is chosen from when the caller does not say.
DEFAULT_CANDIDATES = BUNDLE_CANDIDATES
# A memory cut to fit keeps at least this many tokens of its text, or it is left out.
MIN_CUT_TOKENS = 12
# Versions a superseded memory shows, newest first.
MAX_HISTORY = 2
ELLIPSIS = "…"
# The core block takes at most this share of a bundle's budget; the rest is for the turn.
CORE_SHARE = 0.5
# Reading order of the groups; negative memories that did not trigger still read as rules.
GROUPS = (
    ("negative", "Never do"),
    ("correction", "Corrections"),
    ("preference", "Preferences"),
    ("fact", "Facts"),
    ("procedure", "Procedures"),
)
_TITLES = dict(GROUPS)


@dataclass(frozen=True, kw_only=True)
class ContextRequest:
    context: str
    budget: int = 1000
    format: str = "markdown"
    session_id: str | None = None
    project: str | None = None
    k: int = DEFAULT_CANDIDATES


@dataclass(frozen=True, kw_only=True)
class BundleItem:
    ref: int  # the [n] in the text
    id: str
    section: str  # "core", "rules" (triggered negative rules) or the memory's type
    score: float
    truncated: bool


@dataclass(frozen=True, kw_only=True)
class ContextBundle:
    text: str
    tokens: int
    budget: int
    format: str
    exact_tokens: bool  # counted with the model's tokenizer, not the approximation
    items: tuple[BundleItem, ...]
    dropped: int  # recalled memories (and rules) left out to fit the budget
    gap: bool
    result: RecallResult  # the recall behind it (for post-recall upkeep)


@dataclass(frozen=True)
class _Entry:
    recalled: Recalled
    rule: bool
    content: str
    truncated: bool = False
    core: bool = False


_COUNTERS: dict[str, TokenCounter] = {}
_COUNTERS_LOCK = threading.Lock()


def counter_for(embedder: Embedder) -> TokenCounter:
    """The token counter of the embedding model (one per model directory, loaded once)."""
    with _COUNTERS_LOCK:
        counter = _COUNTERS.get(embedder.model_path)
        if counter is None:
            counter = _COUNTERS[embedder.model_path] = TokenCounter(embedder.model_path)
        return counter


def valid_budget(budget: int) -> int:
    if not isinstance(budget, int) or not 1 <= budget <= MAX_BUDGET:
        raise InvalidInput("budget", f"must be 1-{MAX_BUDGET} tokens", limit=MAX_BUDGET)
    return budget


def build(
    store: Store,
    embedder: Embedder,
    namespace: str,
    request: ContextRequest,
    config: CascadeConfig = DEFAULT_CASCADE,
    *,
    services: retrieval.Services = retrieval.Services(),  # noqa: B008 - frozen
) -> ContextBundle:
    """Recall for ``request.context`` and assemble the bundle (see the module docstring)."""
    with tracing.span("recall.bundle", namespace, budget=request.budget) as span:
        found = _build(store, embedder, namespace, request, config, services)
        span.set_attribute("items", len(found.items))
        span.set_attribute("tokens", found.tokens)
        span.set_attribute("dropped", found.dropped)
    return found


def _build(
    store: Store,
    embedder: Embedder,
    namespace: str,
    request: ContextRequest,
    config: CascadeConfig,
    services: retrieval.Services,
) -> ContextBundle:
    valid_budget(request.budget)
    validate.choice(request.format, FORMATS, "format")
    result = retrieval.recall(
        store,
        embedder,
        namespace,
        RecallRequest(
            context=request.context,
            k=request.k,
            project=request.project,
            session_id=request.session_id,
            include_history=True,
        ),
        config,
        services=services,
    )
    counter = counter_for(embedder)
    rules = [_Entry(r, True, r.memory.content) for r in result.items if r.flagged]
    # Standing instructions and constraints whose condition the context matches: after the
    # triggered rules, before the core block and the rest, so a small budget keeps them.
    applying = [
        _Entry(r, False, r.memory.content) for r in result.items if r.applies and not r.flagged
    ]
    first = {e.recalled.memory.id for e in (*rules, *applying)}
    always = [
        _Entry(Recalled(memory=m, score=0.0), False, m.content, core=True)
        for m in core.get(store, namespace).memories
        if m.id not in first
    ]
    kept = {e.recalled.memory.id for e in always} | first
    # A triggered rule keeps a recall from being a gap; the bundle still leaves out memories
    # when none of them is relevant.
    gap = result.best_relevance < config.answer.min_relevance and not applying
    found = [] if gap else [r for r in result.items if not r.flagged]
    recalled = [_Entry(r, False, r.memory.content) for r in found if r.memory.id not in kept]
    always = _capped([*rules, *applying], always, request, counter)
    chosen = _fit([*rules, *applying, *always, *recalled], request, counter)
    text = _render(chosen, request.format)
    return ContextBundle(
        text=text,
        tokens=counter.count(text),
        budget=request.budget,
        format=request.format,
        exact_tokens=counter.exact,
        items=tuple(
            BundleItem(
                ref=n,
                id=e.recalled.memory.id,
                section="rules" if e.rule else "core" if e.core else e.recalled.memory.memory_type,
                score=e.recalled.score,
                truncated=e.truncated,
            )
            for n, e in enumerate(_reading_order(chosen), start=1)
        ),
        dropped=len(rules) + len(applying) + len(recalled) + len(always) - len(chosen),
        gap=gap,
        result=result,
    )


def _capped(
    rules: list[_Entry], always: list[_Entry], request: ContextRequest, counter: TokenCounter
) -> list[_Entry]:
    """The core block's longest prefix that takes at most ``CORE_SHARE`` of the budget."""
    if not always:
        return always
    room = counter.count(_render(rules, request.format)) + int(CORE_SHARE * request.budget)
    n = len(always)
    while n and counter.count(_render([*rules, *always[:n]], request.format)) > room:
        n -= 1
    return always[:n]


def _fit(ranked: Sequence[_Entry], request: ContextRequest, counter: TokenCounter) -> list[_Entry]:
    """The best-ranked prefix of ``ranked`` whose rendering fits the budget, the first entry
    that does not fit whole cut to what does (if a useful part of it does).

    A longer prefix never renders shorter, so the longest that fits is found by bisection: a
    handful of renderings instead of one per candidate."""

    def fits(n: int) -> bool:
        return counter.count(_render(ranked[:n], request.format)) <= request.budget

    lo, hi = 0, len(ranked)  # ranked[:lo] fits; ranked[:hi + 1] does not (or hi is all)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    chosen = list(ranked[:lo])
    if lo < len(ranked):
        cut = _cut(chosen, ranked[lo], request, counter)
        if cut is not None:
            chosen.append(cut)
    return chosen


def _cut(
    chosen: list[_Entry], entry: _Entry, request: ContextRequest, counter: TokenCounter
) -> _Entry | None:
    bare = replace(entry, content=ELLIPSIS, truncated=True)
    room = request.budget - counter.count(_render([*chosen, bare], request.format))
    while room >= MIN_CUT_TOKENS:
        part = counter.truncate(entry.content, room).rstrip()
        cut = replace(entry, content=part + ELLIPSIS, truncated=True)
        if counter.count(_render([*chosen, cut], request.format)) <= request.budget:
            return cut
        room -= 2  # the cut text tokenized a little differently inside the whole: try shorter
    return None


def _reading_order(entries: Sequence[_Entry]) -> list[_Entry]:
    """The core block (in its order), the rules (as ranked), then each group of memories in
    time order."""
    always = [e for e in entries if e.core]
    rules = [e for e in entries if e.rule]
    order = {kind: i for i, (kind, _) in enumerate(GROUPS)}
    memories = sorted(
        (e for e in entries if not e.rule and not e.core),
        key=lambda e: (
            order.get(e.recalled.memory.memory_type, len(order)),
            e.recalled.memory.created_at,
            e.recalled.memory.id,
        ),
    )
    return always + rules + memories


def _day(iso: str | None) -> str:
    return (iso or "")[:10]


def _until(old: HistoryEntry) -> str | None:
    """When a replaced fact stopped being true: its successor's event time, not the day the
    service was told (a job change told today may have happened years ago)."""
    return old.valid_until or old.superseded_at


def _render(entries: Sequence[_Entry], fmt: str) -> str:
    ordered = _reading_order(entries)
    if fmt == "json":
        return _render_json(ordered)
    return _render_markdown(ordered)


def _render_markdown(entries: Sequence[_Entry]) -> str:
    lines: list[str] = []
    section = None
    for n, entry in enumerate(entries, start=1):
        memory = entry.recalled.memory
        title = (
            "Always in mind"
            if entry.core
            else "Rules that apply"
            if entry.rule
            else _TITLES.get(memory.memory_type, "Other")
        )
        if title != section:
            lines.append(f"## {title}")
            section = title
        when = "" if entry.rule or entry.core else f" ({_day(memory.created_at)})"
        lines.append(f"- [{n}]{when} {entry.content}")
        lines += [f"  - first: {p}" for p in memory.prerequisites]
        lines += [f"  - step: {step}" for step in memory.steps]
        lines += [f"  - warning: {w}" for w in memory.warnings]
        for old in entry.recalled.history[:MAX_HISTORY]:
            lines.append(f"  - earlier, until {_day(_until(old))}: {old.content}")
    return "\n".join(lines)


def _render_json(entries: Sequence[_Entry]) -> str:
    always: list[dict[str, object]] = []
    rules: list[dict[str, object]] = []
    memories: list[dict[str, object]] = []
    for n, entry in enumerate(entries, start=1):
        memory = entry.recalled.memory
        if entry.rule or entry.core:
            (rules if entry.rule else always).append({"ref": n, "content": entry.content})
            continue
        item: dict[str, object] = {
            "ref": n,
            "type": memory.memory_type,
            "when": _day(memory.created_at),
            "content": entry.content,
        }
        if memory.prerequisites:
            item["prerequisites"] = list(memory.prerequisites)
        if memory.steps:
            item["steps"] = list(memory.steps)
        if memory.warnings:
            item["warnings"] = list(memory.warnings)
        history = [
            {"until": _day(_until(old)), "content": old.content}
            for old in entry.recalled.history[:MAX_HISTORY]
        ]
        if history:
            item["earlier"] = history
        memories.append(item)
    if not always and not rules and not memories:
        return ""
    body = (
        {"core": always, "rules": rules, "memories": memories}
        if always
        else {"rules": rules, "memories": memories}
    )
    return json.dumps(body, ensure_ascii=False)
