"""Consolidation: merge duplicates, resolve contradictions, apply changes over time, archive
weak memories, graph-wide or for one namespace.

Gate: a run starts only when ``min_interval_s`` has passed since the last run of the same scope
AND at least ``min_new_facts`` memories were recorded since its watermark (``force`` skips
both), and only while it holds the ``consolidation`` lock (``graph.jobruns``; a second run
raises ``LockHeld``).

Plan: active memories are bucketed by namespace and scope; within a bucket, every memory changed
since the watermark ("dirty"), and every newer memory close to one, is a candidate, decided by
the same ``Decider`` as the write path against its older close neighbours (cosine >=
``decide.CONSIDER_MIN``, computed in-process from the stored embeddings). Non-ADD decisions and
unresolved ``CONTRADICTS`` edges link memories; connected memories form one group, so a memory
belongs to one group and is retired at most once per run. Per group:

- NOOP: the weaker duplicate is archived (``merged_into`` the other, ``MERGED_INTO`` edge), its
  strength, tags and episode links move to the survivor;
- UPDATE: the older text was wrong; it is archived into the newer one the same way;
- SUPERSEDE: the newer ``SUPERSEDES`` the older, kept as history;
- CONTRADICT: the newer wins (the older is superseded, the edge marked resolved) unless it is
  less trusted by more than ``CONTRADICTION_MARGIN`` confidence; then both stay, flagged.

Weak memories (confidence < 0.05 and strength <= 1 by default) outside every group are archived,
never deleted. Each group is one transaction that first checks its memories are unchanged
since planning; a group that fails is reported and leaves the watermark where it was, so the
next run retries it. A second run over the same graph finds nothing to do (idempotent). Each
run writes a ``ConsolidationRun`` node; a dry run returns the plan and writes nothing.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import numpy as np

from hippograph.graph import validate
from hippograph.graph.decide import (
    CONSIDER_MIN,
    Candidate,
    Decider,
    Decision,
    Neighbour,
    OfflineDecider,
    overlap,
)
from hippograph.graph.errors import Conflict, HippographError, LockHeld
from hippograph.graph.model import now_iso, parse_iso, to_iso
from hippograph.graph.store import Row, Store, Tx

log = logging.getLogger(__name__)

LOCK_NAME = "consolidation"
LOCK_KEY = "lock"
LOCK_LEASE = timedelta(minutes=30)
ALL = "*"
PAGE = 2000
NEIGHBOURS_K = 8
CONTRADICTION_MARGIN = 0.15
MAX_RECORDED_OPERATIONS = 1000
# Close pairs gathered before they are cut down to each candidate's nearest (bounds memory).
_PAIRS_HELD = 5_000_000


@dataclass(frozen=True, kw_only=True)
class ConsolidationConfig:
    """min_interval_s / min_new_facts: the gate; weak_*: what counts as weak."""

    min_interval_s: float = 3600.0
    min_new_facts: int = 20
    weak_max_confidence: float = 0.05
    weak_max_strength: int = 1


@dataclass(frozen=True, kw_only=True)
class Operation:
    op: str  # merge, correct, supersede, resolve, flag, archive
    namespace: str
    keep: str | None  # the memory that stays current (survivor, newer, winner)
    other: str  # the memory retired or flagged
    reason: str
    decider: str


@dataclass
class Group:
    namespace: str
    members: set[str]
    operations: list[Operation] = field(default_factory=list)
    snapshot: dict[str, str] = field(default_factory=dict)  # id -> updated_at when planned


@dataclass(frozen=True, kw_only=True)
class ConsolidationReport:
    run_id: str | None
    ran: bool
    dry_run: bool
    scope: str
    skipped: str | None
    started_at: str
    finished_at: str
    counts: dict[str, int]
    operations: tuple[Operation, ...]
    errors: tuple[str, ...]
    watermark_before: str | None
    watermark_after: str | None


class GroupChanged(Conflict):
    """A memory of the group changed between planning and applying; retried next run."""


@dataclass
class _Mem:
    id: str
    namespace: str
    scope_key: str
    memory_type: str
    content: str
    provenance: str
    confidence: float
    strength: int
    created_at: str
    updated_at: str


Observer = Callable[[Sequence[Group]], None]


def consolidate(
    store: Store,
    *,
    namespace: str | None = None,
    config: ConsolidationConfig = ConsolidationConfig(),
    decider: Decider | None = None,
    dry_run: bool = False,
    force: bool = False,
    before_apply: Observer | None = None,
) -> ConsolidationReport:
    """One consolidation run over ``namespace`` (None: every namespace).

    dry_run: plan only (gate reported, lock not taken, nothing written).
    force: ignore the time and volume gate (never the lock).
    before_apply: called with the planned groups before any is applied (progress, tests).
    """
    if namespace is not None:
        validate.namespace(namespace)
    scope = namespace or ALL
    started = now_iso()
    state = store.read("consolidation/state_get", key=f"scope:{scope}")[0]
    watermark = state["watermark"]
    skipped = _gate(store, namespace, state, config, force)
    if skipped and not dry_run:
        return _report(None, False, False, scope, skipped, started, {}, [], [], watermark, None)
    if dry_run:
        groups, weak = plan(store, namespace, watermark, config, decider)
        ops = [op for g in groups for op in g.operations] + [op for op, _ in weak]
        counts = _counts(ops, len(groups), 0)
        return _report(None, False, True, scope, skipped, started, counts, ops, [], watermark, None)
    holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
    acquire_lock(store, holder, started)
    try:
        return _run(store, namespace, scope, started, watermark, config, decider, before_apply)
    finally:
        store.write("consolidation/lock_release", key=LOCK_KEY, holder=holder)


def acquire_lock(store: Store, holder: str, now: str) -> None:
    """Take the graph-wide consolidation lock (a lease: a crashed holder's lock expires after
    ``LOCK_LEASE``). Raises LockHeld while another holder's lease runs."""
    expires = to_iso(parse_iso(now) + LOCK_LEASE)
    params = {"key": LOCK_KEY, "holder": holder, "now": now, "expires_at": expires}
    try:
        row = store.write("consolidation/lock_acquire", **params)[0]
    except Conflict:
        # Both runs created the lock node at once; the node exists now, so this decides.
        row = store.write("consolidation/lock_acquire", **params)[0]
    if not row["acquired"]:
        raise LockHeld(LOCK_NAME, str(row["holder"]), str(row["since"]))


def _gate(
    store: Store,
    namespace: str | None,
    state: Row,
    config: ConsolidationConfig,
    force: bool,
) -> str | None:
    """Why the run is not due, or None when it is."""
    if force:
        return None
    last = state["last_run_at"]
    if last is not None:
        waited = (parse_iso(now_iso()) - parse_iso(last)).total_seconds()
        if waited < config.min_interval_s:
            return (
                f"last run {waited:.0f}s ago; the minimum interval is {config.min_interval_s:.0f}s"
            )
    new = store.read("consolidation/new_facts", namespace=namespace, watermark=state["watermark"])
    count = int(new[0]["count"])
    if count < config.min_new_facts:
        return f"{count} new facts since the last run; {config.min_new_facts} needed"
    return None


def _run(
    store: Store,
    namespace: str | None,
    scope: str,
    started: str,
    watermark: str | None,
    config: ConsolidationConfig,
    decider: Decider | None,
    before_apply: Observer | None,
) -> ConsolidationReport:
    clock = time.perf_counter()
    groups, weak = plan(store, namespace, watermark, config, decider)
    if before_apply is not None:
        before_apply(groups)
    done: list[Operation] = []
    errors: list[str] = []
    for group in groups:
        try:
            store.write_tx(lambda tx, g=group: _apply_group(tx, g, started))  # type: ignore[misc]
            done += group.operations
        except HippographError as exc:
            log.warning("consolidation group %s failed: %s", sorted(group.members), exc.message)
            errors.append(f"group {sorted(group.members)}: {exc.message}")
    if weak:
        archived = store.write_tx(lambda tx: _archive_weak(tx, weak, started))
        done += [op for op, _ in weak if op.other in archived]
    finished = now_iso()
    # A failed group keeps the watermark, so its (still dirty) memories are planned again.
    after = started if not errors else watermark
    counts = _counts(done, len(groups), len(errors))
    counts["elapsed_ms"] = int((time.perf_counter() - clock) * 1000)
    run_id = str(uuid.uuid4())
    run = {
        "id": run_id,
        "scope": scope,
        "started_at": started,
        "finished_at": finished,
        "status": "succeeded" if not errors else "partial",
        "counts": json.dumps(counts, sort_keys=True),
        "operations": [json.dumps(op.__dict__) for op in done[:MAX_RECORDED_OPERATIONS]],
        "errors": errors,
        "watermark_before": watermark,
        "watermark_after": after,
    }

    def record(tx: Tx) -> None:
        tx.run(
            "consolidation/run_create", run={k: v for k, v in run.items() if v not in (None, [])}
        )
        tx.run(
            "consolidation/state_save", key=f"scope:{scope}", last_run_at=started, watermark=after
        )

    store.write_tx(record)
    return _report(
        run_id, True, False, scope, None, started, counts, done, errors, watermark, after
    )


def _report(
    run_id: str | None,
    ran: bool,
    dry_run: bool,
    scope: str,
    skipped: str | None,
    started: str,
    counts: dict[str, int],
    ops: Sequence[Operation],
    errors: Sequence[str],
    before: str | None,
    after: str | None,
) -> ConsolidationReport:
    return ConsolidationReport(
        run_id=run_id, ran=ran, dry_run=dry_run, scope=scope, skipped=skipped, started_at=started,
        finished_at=now_iso(), counts=counts, operations=tuple(ops), errors=tuple(errors),
        watermark_before=before, watermark_after=after,
    )  # fmt: skip


def _counts(ops: Sequence[Operation], groups: int, failed: int) -> dict[str, int]:
    counts = {"groups": groups, "failed_groups": failed}
    for name in ("merge", "correct", "supersede", "resolve", "flag", "archive"):
        counts[name] = sum(1 for op in ops if op.op == name)
    return counts


# ---------------------------------------------------------------- planning


def plan(
    store: Store,
    namespace: str | None,
    watermark: str | None,
    config: ConsolidationConfig,
    decider: Decider | None = None,
) -> tuple[list[Group], list[tuple[Operation, str]]]:
    """The groups to apply and the weak memories to archive (with the ``updated_at`` they were
    seen with), without writing anything."""
    decider = decider or OfflineDecider()
    mems, vectors = _load(store, namespace)
    edges: list[tuple[str, str, Decision]] = []
    buckets: dict[tuple[str, str], list[int]] = {}
    for i, m in enumerate(mems):
        buckets.setdefault((m.namespace, m.scope_key), []).append(i)
    for rows in buckets.values():
        if len(rows) > 1:
            edges += _bucket_edges(mems, vectors, rows, watermark, decider)
    by_id = {m.id: m for m in mems}
    for r in store.read("consolidation/open_contradictions", namespace=namespace):
        a, b = by_id.get(r["from_id"]), by_id.get(r["to_id"])
        if a and b:
            reason = "an open contradiction"
            edges.append((a.id, b.id, Decision(action="CONTRADICT", target=b.id, reason=reason,
                                               decider="graph")))  # fmt: skip
    groups = _groups(edges, by_id)
    grouped = {i for g in groups for i in g.members}
    weak = [
        (Operation(op="archive", namespace=r["namespace"], keep=None, other=r["id"],
                   reason="weak: low confidence, never reinforced", decider="rule"),
         r["updated_at"])
        for r in store.read("consolidation/weak", namespace=namespace,
                            max_confidence=config.weak_max_confidence,
                            max_strength=config.weak_max_strength)
        if r["id"] not in grouped
    ]  # fmt: skip
    return groups, weak


def _load(store: Store, namespace: str | None) -> tuple[list[_Mem], np.ndarray[Any, Any]]:
    mems: list[_Mem] = []
    vectors: list[list[float]] = []
    after = ""
    while True:
        rows = store.read("consolidation/candidates", namespace=namespace, after=after, limit=PAGE)
        for r in rows:
            mems.append(
                _Mem(
                    id=r["id"], namespace=r["namespace"], scope_key=r["scope_key"] or "global",
                    memory_type=r["memory_type"], content=r["content"], provenance=r["provenance"],
                    confidence=float(r["confidence"] or 0.0), strength=int(r["strength"] or 1),
                    created_at=r["created_at"], updated_at=r["updated_at"],
                )
            )  # fmt: skip
            vectors.append(r["embedding"])
        if len(rows) < PAGE:
            break
        after = rows[-1]["id"]
    if not vectors:
        return mems, np.zeros((0, 0), dtype=np.float32)
    matrix = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return mems, matrix / np.where(norms == 0, 1, norms)


def _bucket_edges(
    mems: Sequence[_Mem],
    vectors: np.ndarray[Any, Any],
    rows: list[int],
    watermark: str | None,
    decider: Decider,
) -> list[tuple[str, str, Decision]]:
    """Non-ADD decisions of the candidates of one bucket against their older neighbours.

    Every close pair (cosine >= CONSIDER_MIN) with at least one end changed since the watermark
    makes the newer end a candidate and the older one its neighbour; two written in the same
    instant are each judged against the other. A candidate is decided against its
    ``NEIGHBOURS_K`` closest neighbours (ties by position). The pairs come out of numpy whole:
    collecting them pair by pair in Python cost 15 s of a 36 s run on 10,000 memories.
    """
    sub = vectors[rows]
    size = len(rows)
    # Position of each row in (created_at, id) order: the greater of two is the newer.
    keys = [(mems[i].created_at, mems[i].id) for i in rows]
    order = np.empty(size, dtype=np.int64)
    order[sorted(range(size), key=keys.__getitem__)] = np.arange(size)
    instants: dict[str, int] = {}
    instant = np.asarray(
        [instants.setdefault(mems[i].created_at, len(instants)) for i in rows], dtype=np.int64
    )
    dirty = np.asarray(
        [n for n, i in enumerate(rows) if watermark is None or mems[i].updated_at > watermark],
        dtype=np.int64,
    )
    found: list[tuple[np.ndarray[Any, Any], ...]] = []  # (candidate, neighbour, cosine)
    pending = 0
    for start in range(0, len(dirty), 512):
        block = dirty[start : start + 512]
        sims = sub[block] @ sub.T
        sims[np.arange(len(block)), block] = -np.inf  # a memory is not its own neighbour
        at, other = np.nonzero(sims >= CONSIDER_MIN)
        me = block[at]
        cos = sims[at, other]
        del sims
        me_newer = order[me] > order[other]
        newer, older = np.where(me_newer, me, other), np.where(me_newer, other, me)
        same = instant[me] == instant[other]
        found += [(newer, older, cos), (older[same], newer[same], cos[same])]
        pending += len(newer) + int(same.sum())
        if pending > _PAIRS_HELD:
            # Dense topics give thousands of close pairs per memory: keep only what can still
            # be among each candidate's nearest, so memory stays bounded.
            found = [_nearest(found, size)]
            pending = len(found[0][0])
    cand, near, cos = _nearest(found, size)
    if not len(cand):
        return []
    edges = []
    bounds = np.r_[0, np.nonzero(np.diff(cand))[0] + 1, len(cand)]
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=False):
        me_ = mems[rows[int(cand[lo])]]
        near_ = [
            _neighbour(me_, mems[rows[int(m)]], float(c))
            for m, c in zip(near[lo:hi], cos[lo:hi], strict=True)
        ]
        decision = decider.decide(
            Candidate(content=me_.content, memory_type=me_.memory_type,
                      provenance=me_.provenance, occurred_at=me_.created_at),
            near_,
        )  # fmt: skip
        if decision.action != "ADD" and decision.target:
            edges.append((me_.id, decision.target, decision))
    return edges


def _nearest(
    found: Sequence[tuple[np.ndarray[Any, Any], ...]], size: int
) -> tuple[np.ndarray[Any, Any], ...]:
    """(candidate, neighbour, cosine) rows: per candidate its ``NEIGHBOURS_K`` closest distinct
    neighbours, closest first (ties by position), candidates in position order. A pair seen
    from both ends (both changed) counts once, at its best cosine."""
    if not found:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0, dtype=np.float32)
    cand, near, cos = (np.concatenate([f[k] for f in found]) for k in range(3))
    ranked = np.lexsort((near, -cos, cand))
    cand, near, cos = cand[ranked], near[ranked], cos[ranked]
    _, first = np.unique(cand * size + near, return_index=True)
    keep = np.sort(first)
    cand, near, cos = cand[keep], near[keep], cos[keep]
    if not len(cand):
        return cand, near, cos
    starts = np.r_[0, np.nonzero(np.diff(cand))[0] + 1]
    rank = np.arange(len(cand)) - np.repeat(starts, np.diff(np.r_[starts, len(cand)]))
    top = rank < NEIGHBOURS_K
    return cand[top], near[top], cos[top]


def _neighbour(me: _Mem, other: _Mem, cos: float) -> Neighbour:
    return Neighbour(
        id=other.id, content=other.content, memory_type=other.memory_type, cosine=cos,
        overlap=overlap(me.content, other.content), created_at=other.created_at,
        updated_at=other.updated_at,
    )  # fmt: skip


def _groups(edges: Sequence[tuple[str, str, Decision]], by_id: dict[str, _Mem]) -> list[Group]:
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b, _ in edges:
        parent[find(a)] = find(b)
    groups: dict[str, Group] = {}
    for a, b, _ in edges:
        root = find(a)
        group = groups.setdefault(root, Group(namespace=by_id[a].namespace, members=set()))
        group.members |= {a, b}
    retired: set[str] = set()
    # Oldest candidate first, so a chain of changes is applied in the order it happened.
    for a, b, decision in sorted(edges, key=lambda e: (by_id[e[0]].created_at, e[0], e[1])):
        group = groups[find(a)]
        if a in retired or b in retired:
            continue  # each memory is retired at most once per run; the next run sees the rest
        op = _operation(by_id[a], by_id[b], decision)
        group.operations.append(op)
        if op.op != "flag":
            retired.add(op.other)
    for group in groups.values():
        group.snapshot = {i: by_id[i].updated_at for i in group.members}
    return [g for g in groups.values() if g.operations]


def _operation(new: _Mem, old: _Mem, decision: Decision) -> Operation:
    """Turn a decision of ``new`` about ``old`` into what consolidation does."""
    action, why = decision.action, decision.reason
    if action == "NOOP":
        keep, other = (
            (old, new) if (old.strength, old.confidence) >= (new.strength, new.confidence)
            else (new, old)
        )  # fmt: skip
        return _op("merge", keep, other, f"duplicate: {why}", decision)
    if action == "UPDATE":
        return _op("correct", new, old, f"correction: {why}", decision)
    if action == "SUPERSEDE":
        return _op("supersede", new, old, f"change over time: {why}", decision)
    newer, older = (
        (new, old) if (new.created_at, new.id) >= (old.created_at, old.id) else (old, new)
    )
    if newer.confidence >= older.confidence - CONTRADICTION_MARGIN:
        return _op("resolve", newer, older, f"contradiction, newer wins: {why}", decision)
    return _op("flag", newer, older, f"contradiction, left for a person: {why}", decision)


def _op(kind: str, keep: _Mem, other: _Mem, reason: str, decision: Decision) -> Operation:
    return Operation(
        op=kind, namespace=keep.namespace, keep=keep.id, other=other.id, reason=reason,
        decider=decision.decider,
    )  # fmt: skip


# ---------------------------------------------------------------- applying


def _apply_group(tx: Tx, group: Group, now: str) -> None:
    ns = group.namespace
    current = {
        r["id"]: (r["status"], r["updated_at"])
        for r in tx.run("consolidation/snapshot", ids=sorted(group.members))
    }
    for memory_id, updated_at in group.snapshot.items():
        if current.get(memory_id) != ("active", updated_at):
            raise GroupChanged(f"memory {memory_id} changed since the run was planned")
    decisions = []
    for op in group.operations:
        decisions.append(_decision_row(op, now))
        if op.op in ("merge", "correct"):
            row = {"keep": op.keep, "dup": op.other, "reason": "merged" if op.op == "merge"
                   else "corrected"}  # fmt: skip
            add = _strength(tx, op.other)
            tx.run("consolidation/merge_keep", namespace=ns, now=now,
                   rows=[{"keep": op.keep, "add_strength": add, "confidence": 0.0}])  # fmt: skip
            tx.run("consolidation/copy_tags", namespace=ns, now=now, rows=[row])
            tx.run("consolidation/copy_derivations", namespace=ns, now=now, rows=[row])
            tx.run("consolidation/merge_archive", namespace=ns, now=now, rows=[row])
        elif op.op in ("supersede", "resolve"):
            tx.run("memory/supersede", namespace=ns, old_id=op.other, new_id=op.keep, now=now,
                   reason=op.reason)  # fmt: skip
            if op.op == "resolve":
                _resolve(tx, ns, op, now, "newer wins")
        elif op.op == "flag":
            _resolve(tx, ns, op, now, None)
    tx.run("decision/record", rows=decisions)


def _strength(tx: Tx, memory_id: str) -> int:
    rows = tx.run("consolidation/strength", id=memory_id)
    return int(rows[0]["strength"] or 1) if rows else 1


def _resolve(tx: Tx, ns: str, op: Operation, now: str, resolution: str | None) -> None:
    """Make sure the CONTRADICTS edge exists; mark it resolved when there is a resolution."""
    tx.run("link/contradicts", namespace=ns, from_id=op.keep, to_id=op.other, weight=1.0, now=now)
    if resolution is not None:
        tx.run("consolidation/resolve", namespace=ns, a=op.keep, b=op.other, now=now,
               resolution=f"{resolution}: {op.keep}")  # fmt: skip


_ACTION = {"merge": "NOOP", "correct": "UPDATE", "supersede": "SUPERSEDE", "resolve": "CONTRADICT",
           "flag": "CONTRADICT", "archive": "ARCHIVE"}  # fmt: skip


def _decision_row(op: Operation, now: str) -> dict[str, Any]:
    row = {
        "id": str(uuid.uuid4()), "namespace": op.namespace, "at": now, "source": "consolidate",
        "action": _ACTION[op.op], "memory_id": op.keep or op.other, "target_id": op.other,
        "reason": op.reason, "decider": op.decider, "content": "",
    }  # fmt: skip
    return {k: v for k, v in row.items() if v is not None}


def _archive_weak(tx: Tx, weak: Sequence[tuple[Operation, str]], now: str) -> set[str]:
    """Archive the weak memories still as they were when planned (a reinforced one is not)."""
    rows = [{"id": op.other, "updated_at": seen} for op, seen in weak]
    archived = {r["id"] for r in tx.run("consolidation/archive_weak", rows=rows, now=now)}
    decisions = [_decision_row(op, now) for op, _ in weak if op.other in archived]
    if decisions:
        tx.run("decision/record", rows=decisions)
    return archived


def runs(store: Store, scope: str | None = None, first: int = 20) -> list[dict[str, Any]]:
    """The latest ``ConsolidationRun`` records, newest first."""
    rows = store.read("consolidation/runs", scope=scope, limit=first)
    return [dict(r["run"]) for r in rows]
