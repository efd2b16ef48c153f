"""The core block: per namespace, the few memories an agent should always have in view.

Promotion is by evidence, not by being returned. A candidate is an active memory that is a
negative rule, a correction or a preference (kinds that stay true until changed), or any other
memory the client used at least ``min_uses`` times (``used``, helpful feedback) or confirmed.
The offline rule ranks them by

    type weight x confidence x (1 + ln(1 + uses)) x (1 + importance)

(negative rules, then corrections, then preferences weigh most) and keeps the best ``size``;
a member keeps its seat against a newcomer that beats it by less than ``hysteresis`` (a block
that changes on every run is no block). With an LLM configured, the model picks up to ``size``
ids among the best ``3 x size`` candidates in one call answering strict JSON
(``{"core": [ids]}``, only candidate ids, no repeats); any failure or malformed answer falls
back to the rule, and the change records which decided. Every change (what came in, what left,
who chose) is kept as a ``CoreChange`` node; the current block is one ``CoreBlock`` node.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from hippograph.graph import memories, validate
from hippograph.graph.errors import InvalidInput, LLMError
from hippograph.graph.model import Memory, now_iso
from hippograph.graph.models.llm import JsonCompleter
from hippograph.graph.store.store import Row, Store

log = logging.getLogger(__name__)
SCHEMA_NAME = "core_block"
MAX_CORE = 50
MAX_CHANGES = 200  # core changes one call lists


def _default_weights() -> dict[str, float]:
    return {"negative": 3.0, "correction": 2.5, "preference": 2.0, "procedure": 1.2, "fact": 1.0}


@dataclass(frozen=True, kw_only=True)
class CoreConfig:
    """size: memories in the block at most; min_uses: explicit uses that make any memory a
    candidate; hysteresis: how much better a newcomer must score to unseat a member."""

    size: int = 10
    min_uses: int = 2
    hysteresis: float = 0.1
    weights: dict[str, float] = field(default_factory=_default_weights)
    by_type: tuple[str, ...] = ("negative", "correction", "preference")

    def __post_init__(self) -> None:
        if not 0 <= self.size <= MAX_CORE:
            raise InvalidInput("size", f"must be 0-{MAX_CORE}", limit=MAX_CORE)
        if self.min_uses < 1:
            raise InvalidInput("min_uses", "must be at least 1")
        if not 0.0 <= self.hysteresis <= 1.0:
            raise InvalidInput("hysteresis", "must be in 0..1")


DEFAULT_CORE = CoreConfig()


@dataclass(frozen=True, kw_only=True)
class CoreBlock:
    namespace: str
    version: int
    updated_at: str | None
    decider: str | None
    memories: tuple[Memory, ...]


@dataclass(frozen=True, kw_only=True)
class CoreChange:
    version: int
    at: str
    decider: str
    added: tuple[str, ...]
    removed: tuple[str, ...]
    reason: str


def score(row: Row, config: CoreConfig) -> float:
    weight = config.weights.get(str(row["memory_type"]), 1.0)
    uses = max(int(row["uses"] or 0), 0)
    return (
        weight
        * float(row["confidence"] or 0.0)
        * (1 + math.log1p(uses))
        * (1 + float(row["importance"] or 0.0))
    )


def choose_offline(rows: Sequence[Row], current: Sequence[str], config: CoreConfig) -> list[str]:
    """The ``size`` best candidates by the rule; a member stays unless a newcomer beats it by
    more than the hysteresis."""
    members = set(current)
    ranked = sorted(
        rows,
        key=lambda r: (-score(r, config) * (1 + config.hysteresis * (r["id"] in members)), r["id"]),
    )
    return [str(r["id"]) for r in ranked[: config.size]]


_SYSTEM = """\
You curate the always-visible core memory of an AI agent: the few facts it must keep in mind in
every conversation. From the numbered candidates, choose at most {size} that are most valuable
to have in view at all times: standing rules and things never to do, corrections, stable
preferences, identity facts used often. Prefer memories with more uses. Answer with one JSON
object and nothing else: {{"core": [candidate ids, most important first]}}."""


def choose_llm(client: JsonCompleter, rows: Sequence[Row], config: CoreConfig) -> list[str]:
    """The model's choice among ``rows``, validated strictly; ``LLMError`` on any deviation."""
    listing = "\n".join(
        f"- id={r['id']} type={r['memory_type']} uses={r['uses']} "
        f"confidence={float(r['confidence'] or 0):.2f}: {r['content']}"
        for r in rows
    )
    payload = client.complete_json(
        _SYSTEM.format(size=config.size), listing, schema_name=SCHEMA_NAME
    )
    if not isinstance(payload, dict) or set(payload) != {"core"}:
        raise LLMError(f"{SCHEMA_NAME}: expected an object whose only key is 'core'")
    chosen = payload["core"]
    known = {str(r["id"]) for r in rows}
    if not isinstance(chosen, list) or len(chosen) > config.size:
        raise LLMError(f"{SCHEMA_NAME}: 'core' must be a list of at most {config.size} ids")
    if any(not isinstance(i, str) or i not in known for i in chosen):
        raise LLMError(f"{SCHEMA_NAME}: 'core' holds an id that is not a candidate")
    if len(set(chosen)) != len(chosen):
        raise LLMError(f"{SCHEMA_NAME}: 'core' repeats an id")
    return [str(i) for i in chosen]


def recompute(
    store: Store,
    namespace: str,
    config: CoreConfig = DEFAULT_CORE,
    *,
    client: JsonCompleter | None = None,
) -> CoreChange | None:
    """Choose the namespace's core block again; write it, and the change, only if it changed.
    Returns the change (None when the block stays as it is)."""
    validate.namespace(namespace)
    state = store.read("core/get", namespace=namespace)
    current = [str(i) for i in state[0]["memory_ids"] or []] if state else []
    version = int(state[0]["version"]) if state else 0
    rows = store.read(
        "core/candidates",
        namespace=namespace,
        types=list(config.weights),
        by_type=list(config.by_type),
        min_uses=config.min_uses,
        limit=max(10 * config.size, 100),
    )
    offline = choose_offline(rows, current, config)
    chosen, decider = offline, "rule"
    if client is not None and rows:
        shortlist = sorted(rows, key=lambda r: (-score(r, config), r["id"]))[: 3 * config.size]
        try:
            chosen, decider = choose_llm(client, shortlist, config), "llm"
        except LLMError as exc:
            log.warning("core block of %s: the LLM's choice was refused (%s); rule", namespace, exc)
            decider = "rule (llm failed)"
    if chosen == current:
        return None
    added = tuple(i for i in chosen if i not in current)
    removed = tuple(i for i in current if i not in chosen)
    reason = f"{len(rows)} candidates; {len(added)} in, {len(removed)} out"
    now = now_iso()
    store.write(
        "core/save",
        namespace=namespace,
        memory_ids=chosen,
        version=version + 1,
        now=now,
        decider=decider,
        added=list(added),
        removed=list(removed),
        reason=reason,
    )
    return CoreChange(
        version=version + 1, at=now, decider=decider, added=added, removed=removed, reason=reason
    )


def get(store: Store, namespace: str) -> CoreBlock:
    """The current block; its memories in the block's order, those no longer active left out
    (a forgotten or superseded member leaves at once, not at the next computation)."""
    validate.namespace(namespace)
    state = store.read("core/get", namespace=namespace)
    if not state:
        return CoreBlock(namespace=namespace, version=0, updated_at=None, decider=None, memories=())
    found = memories.get_many(store, namespace, [str(i) for i in state[0]["memory_ids"] or []])
    return CoreBlock(
        namespace=namespace,
        version=int(state[0]["version"]),
        updated_at=state[0]["updated_at"],
        decider=state[0]["decider"],
        memories=tuple(m for m in found if m.status == "active"),
    )


def changes(store: Store, namespace: str, first: int = 20) -> list[CoreChange]:
    validate.namespace(namespace)
    if not 1 <= first <= MAX_CHANGES:
        raise InvalidInput("first", f"{first} is outside 1..{MAX_CHANGES}", limit=MAX_CHANGES)
    rows = store.read("core/changes", namespace=namespace, limit=first)
    return [
        CoreChange(
            version=int(r["version"]),
            at=r["at"],
            decider=r["decider"],
            added=tuple(r["added"] or ()),
            removed=tuple(r["removed"] or ()),
            reason=r["reason"],
        )
        for r in rows
    ]
