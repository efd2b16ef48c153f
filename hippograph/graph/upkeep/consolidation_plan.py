"""Planning a consolidation run without writing anything: load the memories of every bucket
(namespace, scope) that changed since the watermark, decide each changed memory against its
close older neighbours with the write path's ``Decider``, join linked memories into groups (a
memory is retired at most once per run) and list the weak memories to archive."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import numpy as np

from hippograph.graph import clock
from hippograph.graph.model import to_iso
from hippograph.graph.store.store import Row, Store
from hippograph.graph.text.statements import memoized, overlap, retirable
from hippograph.graph.upkeep.close_pairs import neighbour_lists
from hippograph.graph.upkeep.consolidation_model import ConsolidationConfig, Group, Mem, Operation
from hippograph.graph.write.decide import (
    Candidate,
    Decider,
    Decision,
    Neighbour,
    OfflineDecider,
)

PAGE = 2000
CONTRADICTION_MARGIN = 0.15


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
    # The two side reads run on the engine while this thread reads and plans.
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="consolidation-read") as pool:
        contradicting = pool.submit(
            store.read, "consolidation/open_contradictions", namespace=namespace
        )
        weakening = pool.submit(
            store.read, "consolidation/weak", namespace=namespace,
            max_confidence=config.weak_max_confidence, max_strength=config.weak_max_strength,
            max_base=config.weak_max_base,
        )  # fmt: skip
        # The first run reads every memory anyway; later ones need the contradictions' ends.
        ends = set() if watermark is None else _ends(contradicting.result())
        mems, vectors = load(store, namespace, watermark, ends)
        edges: list[tuple[str, str, Decision]] = []
        buckets: dict[tuple[str, str], list[int]] = {}
        for i, m in enumerate(mems):
            buckets.setdefault((m.namespace, m.scope_key), []).append(i)
        with memoized():
            for rows in buckets.values():
                if len(rows) > 1:
                    edges += _bucket_edges(mems, vectors, rows, watermark, decider)
        contradictions, weakest = contradicting.result(), weakening.result()
    by_id = {m.id: m for m in mems}
    for r in contradictions:
        a, b = by_id.get(r["from_id"]), by_id.get(r["to_id"])
        if a and b:
            reason = "an open contradiction"
            edges.append((a.id, b.id, Decision(action="CONTRADICT", target=b.id, reason=reason,
                                               decider="graph")))  # fmt: skip
    groups = _groups(edges, by_id)
    grouped = {i for g in groups for i in g.members}
    cutoff = to_iso(clock.now() - timedelta(days=config.weak_grace_days))
    weak = [
        (Operation(op="archive", namespace=r["namespace"], keep=None, other=r["id"],
                   reason="weak: low confidence, unused through its grace period",
                   decider="rule"),
         r["updated_at"])
        for r in weakest
        if r["id"] not in grouped and last_used(r) <= cutoff
    ]  # fmt: skip
    return groups, weak


def last_used(row: Row) -> str:
    """When the service last learned of, used, reinforced or confirmed a memory (ISO)."""
    keys = ("learned_at", "last_accessed", "last_reinforced_at", "confirmed_at")
    return max(str(row[k]) for k in keys if row[k])


def _ends(contradictions: Sequence[Row]) -> set[str]:
    return {r[k] for r in contradictions for k in ("from_id", "to_id")}


def load(
    store: Store, namespace: str | None, watermark: str | None, ends: set[str]
) -> tuple[list[Mem], np.ndarray[Any, Any]]:
    """The memories of every bucket (namespace, scope) with a memory changed since the
    watermark, plus ``ends`` (of open contradictions), with unit embeddings. A bucket where
    nothing changed has nothing to plan: an idle run reads no embedding. The first run (no
    watermark) plans over everything and reads it in one streamed scan."""
    if watermark is None:
        rows = store.stream("consolidation/candidates_scan", namespace=namespace)
    else:
        listed = store.read("consolidation/candidate_ids", namespace=namespace)
        changed = {(r["namespace"], r["scope_key"]) for r in listed if r["updated_at"] > watermark}
        wanted = sorted(
            r["id"]
            for r in listed
            if (r["namespace"], r["scope_key"]) in changed or r["id"] in ends
        )
        # A memory retired since it was listed is not returned.
        rows = (
            r
            for start in range(0, len(wanted), PAGE)
            for r in store.read("consolidation/candidates", ids=wanted[start : start + PAGE])
        )
    mems: list[Mem] = []
    chunks: list[np.ndarray[Any, Any]] = []
    vectors: list[list[float]] = []
    for r in rows:
        mems.append(
            Mem(
                id=r["id"], namespace=r["namespace"], scope_key=r["scope_key"] or "global",
                memory_type=r["memory_type"], content=r["content"], provenance=r["provenance"],
                confidence=float(r["confidence"] or 0.0), strength=int(r["strength"] or 1),
                created_at=r["created_at"], updated_at=r["updated_at"],
            )
        )  # fmt: skip
        vectors.append(r["embedding"])
        if len(vectors) == PAGE:  # as float32 arrays: a Python float list costs 6x the memory
            chunks.append(np.asarray(vectors, dtype=np.float32))
            vectors = []
    if vectors:
        chunks.append(np.asarray(vectors, dtype=np.float32))
    if not chunks:
        return mems, np.zeros((0, 0), dtype=np.float32)
    # In id order whichever way they were read, so ties in planning break the same way.
    by_id = sorted(range(len(mems)), key=lambda i: mems[i].id)
    matrix = np.concatenate(chunks)[by_id]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return [mems[i] for i in by_id], matrix / np.where(norms == 0, 1, norms)


def _bucket_edges(
    mems: Sequence[Mem],
    vectors: np.ndarray[Any, Any],
    rows: list[int],
    watermark: str | None,
    decider: Decider,
) -> list[tuple[str, str, Decision]]:
    """Non-ADD decisions of the candidates of one bucket against their older neighbours.

    Every close pair (cosine >= CONSIDER_MIN) with at least one end changed since the watermark
    makes the newer end a candidate and the older one its neighbour; two written in the same
    instant are each judged against the other. A candidate is decided against its
    ``NEIGHBOURS_K`` closest neighbours. The lists come out of numpy whole, each block of
    cosines cut to its rows' nearest before any pair is collected: gathering every close pair
    first cost minutes at 100,000 memories on dense topics, where each has thousands.
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
    if not len(dirty):
        return []
    cand, near, cos = neighbour_lists(sub, dirty, order, instant)
    if not len(cand):
        return []
    edges = []
    bounds = np.r_[0, np.nonzero(np.diff(cand))[0] + 1, len(cand)]
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=False):
        me = mems[rows[int(cand[lo])]]
        neighbours = [
            _neighbour(me, mems[rows[int(m)]], float(c))
            for m, c in zip(near[lo:hi], cos[lo:hi], strict=True)
        ]
        decision = decider.decide(
            Candidate(content=me.content, memory_type=me.memory_type,
                      provenance=me.provenance, occurred_at=me.created_at),
            neighbours,
        )  # fmt: skip
        if decision.action != "ADD" and decision.target:
            edges.append((me.id, decision.target, decision))
    return edges


def _neighbour(me: Mem, other: Mem, cos: float) -> Neighbour:
    return Neighbour(
        id=other.id, content=other.content, memory_type=other.memory_type, cosine=cos,
        overlap=overlap(me.content, other.content), created_at=other.created_at,
        updated_at=other.updated_at,
    )  # fmt: skip


def _groups(edges: Sequence[tuple[str, str, Decision]], by_id: dict[str, Mem]) -> list[Group]:
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


def _operation(new: Mem, old: Mem, decision: Decision) -> Operation:
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
    if not retirable(older.content):
        # Superseding a long memory would take all else it says out of recall with it (a
        # contradiction flagged between two long turns before the write path stopped doing so).
        reason = f"contradiction, left for a person (the older says too much to retire): {why}"
        return _op("flag", newer, older, reason, decision)
    if newer.confidence >= older.confidence - CONTRADICTION_MARGIN:
        return _op("resolve", newer, older, f"contradiction, newer wins: {why}", decision)
    return _op("flag", newer, older, f"contradiction, left for a person: {why}", decision)


def _op(kind: str, keep: Mem, other: Mem, reason: str, decision: Decision) -> Operation:
    return Operation(
        op=kind, namespace=keep.namespace, keep=keep.id, other=other.id, reason=reason,
        decider=decision.decider,
    )  # fmt: skip
