"""Consolidation: merge duplicates, resolve contradictions, apply changes over time, archive
weak memories, graph-wide or for one namespace.

Gate: a run starts only when ``min_interval_s`` has passed since the last run of the same scope
AND at least ``min_new_facts`` memories were recorded since its watermark (``force`` skips
both), and only while it holds the ``consolidation`` lock (``graph.upkeep.jobruns``; a second run
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
never deleted. Groups are applied up to ``BATCH`` to a transaction, which first checks their
memories are unchanged since planning and skips a group whose memories changed; a batch whose
transaction fails is retried group by group. A group that fails is reported and leaves the
watermark where it was, so the next run retries it. A second run over the same graph finds
nothing to do (idempotent) and, with nothing changed since the watermark, reads no embedding.
Each run writes a ``ConsolidationRun`` node; a dry run returns the plan and writes nothing.

Scale: a bucket of up to ``EXACT_MAX`` memories is searched exactly; a larger one through
k-means cells (``_probed_blocks``). A batch applies one statement per kind of operation.
100,000 memories: see ``bench/consolidate.py``.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import numpy as np

from hippograph.graph import validate
from hippograph.graph.errors import Conflict, HippographError, LockHeld
from hippograph.graph.model import now_iso, parse_iso, to_iso
from hippograph.graph.store.store import Row, Store, Tx
from hippograph.graph.write.decide import (
    CONSIDER_MIN,
    BudgetedDecider,
    Candidate,
    Decider,
    Decision,
    Neighbour,
    OfflineDecider,
    memoized,
    overlap,
)

log = logging.getLogger(__name__)

LOCK_NAME = "consolidation"
LOCK_KEY = "lock"
LOCK_LEASE = timedelta(minutes=30)
ALL = "*"
PAGE = 2000
NEIGHBOURS_K = 8
CONTRADICTION_MARGIN = 0.15
MAX_RECORDED_OPERATIONS = 1000
BATCH = 500  # groups applied in one transaction
# Close pairs gathered before they are cut down to each candidate's nearest (bounds memory).
_PAIRS_HELD = 5_000_000
EXACT_MAX = 20_000  # memories in a bucket up to which close pairs are found exactly
PROBES = 8  # cells each memory is compared with above that (see _probed_blocks)


@dataclass(frozen=True, kw_only=True)
class ConsolidationConfig:
    """min_interval_s / min_new_facts: the gate; weak_*: what counts as weak;
    llm_max_calls: with an LLM decider, at most this many model calls a run; the candidates
    past it are decided by the offline rules (their decisions say so), so a first run over a
    large namespace cannot ask the model once per close pair."""

    min_interval_s: float = 3600.0
    min_new_facts: int = 20
    weak_max_confidence: float = 0.05
    weak_max_strength: int = 1
    llm_max_calls: int = 500


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
Progress = Callable[[int, int], None]


def consolidate(
    store: Store,
    *,
    namespace: str | None = None,
    config: ConsolidationConfig = ConsolidationConfig(),
    decider: Decider | None = None,
    dry_run: bool = False,
    force: bool = False,
    before_apply: Observer | None = None,
    progress: Progress | None = None,
) -> ConsolidationReport:
    """One consolidation run over ``namespace`` (None: every namespace).

    dry_run: plan only (gate reported, lock not taken, nothing written).
    force: ignore the time and volume gate (never the lock).
    before_apply: called with the planned groups before any is applied (tests).
    progress: called with (groups applied, groups planned) after each batch.
    """
    if namespace is not None:
        validate.namespace(namespace)
    if decider is not None and decider.name == "llm":
        decider = BudgetedDecider(decider, config.llm_max_calls)
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
        counts = {**_counts(ops, len(groups), 0), **_llm_counts(decider)}
        return _report(None, False, True, scope, skipped, started, counts, ops, [], watermark, None)
    holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
    acquire_lock(store, holder, started)
    try:
        return _run(
            store, namespace, scope, started, watermark, config, decider, before_apply, progress
        )
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
    progress: Progress | None,
) -> ConsolidationReport:
    clock = time.perf_counter()
    groups, weak = plan(store, namespace, watermark, config, decider)
    planned_ms = int((time.perf_counter() - clock) * 1000)
    if before_apply is not None:
        before_apply(groups)
    done: list[Operation] = []
    errors: list[str] = []
    applied = 0
    for batch in _batches(groups):
        try:
            failed = store.write_tx(lambda tx, b=batch: _apply_batch(tx, b, started))  # type: ignore[misc]
        except HippographError:
            # One group spoils its batch's transaction: apply them one by one, so only it fails.
            failed = []
            for group in batch:
                try:
                    failed += store.write_tx(lambda tx, g=group: _apply_batch(tx, [g], started))  # type: ignore[misc]
                except HippographError as exc:
                    failed.append((group, exc.message))
        for group, why in failed:
            log.warning("consolidation group %s failed: %s", sorted(group.members), why)
            errors.append(f"group {sorted(group.members)}: {why}")
        spoiled = {id(g) for g, _ in failed}
        done += [op for g in batch if id(g) not in spoiled for op in g.operations]
        applied += len(batch)
        if progress is not None:
            progress(applied, len(groups))
    if weak:
        archived = store.write_tx(lambda tx: _archive_weak(tx, weak, started))
        done += [op for op, _ in weak if op.other in archived]
    finished = now_iso()
    # A failed group keeps the watermark, so its (still dirty) memories are planned again.
    after = started if not errors else watermark
    counts = {**_counts(done, len(groups), len(errors)), **_llm_counts(decider)}
    counts["elapsed_ms"] = int((time.perf_counter() - clock) * 1000)
    counts["plan_ms"] = planned_ms
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


def _batches(groups: Sequence[Group]) -> list[list[Group]]:
    """Groups in application order, cut into batches of one namespace each."""
    batches: list[list[Group]] = []
    for group in sorted(groups, key=lambda g: g.namespace):
        if not batches or len(batches[-1]) >= BATCH or batches[-1][0].namespace != group.namespace:
            batches.append([])
        batches[-1].append(group)
    return batches


def _llm_counts(decider: Decider | None) -> dict[str, int]:
    """Model calls of the run, and the decisions left to the rules once its budget was spent."""
    if not isinstance(decider, BudgetedDecider):
        return {}
    if decider.over:
        log.warning(
            "consolidation: the LLM budget of %d calls was spent; %d more candidates were "
            "decided by the offline rules (raise HIPPOGRAPH_CONSOLIDATE_LLM_MAX_CALLS)",
            decider.calls,
            decider.over,
        )
    return {"llm_calls": decider.spent, "llm_over_budget": decider.over}


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
    # The two side reads run on the engine while this thread reads and plans.
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="consolidation-read") as pool:
        contradicting = pool.submit(
            store.read, "consolidation/open_contradictions", namespace=namespace
        )
        weakening = pool.submit(
            store.read, "consolidation/weak", namespace=namespace,
            max_confidence=config.weak_max_confidence, max_strength=config.weak_max_strength,
        )  # fmt: skip
        # The first run reads every memory anyway; later ones need the contradictions' ends.
        ends = set() if watermark is None else _ends(contradicting.result())
        mems, vectors = _load(store, namespace, watermark, ends)
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
    weak = [
        (Operation(op="archive", namespace=r["namespace"], keep=None, other=r["id"],
                   reason="weak: low confidence, never reinforced", decider="rule"),
         r["updated_at"])
        for r in weakest
        if r["id"] not in grouped
    ]  # fmt: skip
    return groups, weak


def _ends(contradictions: Sequence[Row]) -> set[str]:
    return {r[k] for r in contradictions for k in ("from_id", "to_id")}


def _load(
    store: Store, namespace: str | None, watermark: str | None, ends: set[str]
) -> tuple[list[_Mem], np.ndarray[Any, Any]]:
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
    mems: list[_Mem] = []
    chunks: list[np.ndarray[Any, Any]] = []
    vectors: list[list[float]] = []
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
    cand, near, cos = _neighbour_lists(sub, dirty, order, instant)
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


Block = tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]


def _neighbour_lists(
    sub: np.ndarray[Any, Any],
    dirty: np.ndarray[Any, Any],
    order: np.ndarray[Any, Any],
    instant: np.ndarray[Any, Any],
) -> tuple[np.ndarray[Any, Any], ...]:
    """(candidate, neighbour, cosine) rows as ``_nearest`` gives them, for every close pair
    (cosine >= CONSIDER_MIN) of ``sub`` with a ``dirty`` end: the newer end (greater
    ``order``) is the candidate, the older its neighbour; two of the same ``instant`` are each
    the other's neighbour."""
    size = len(sub)
    clean = np.ones(size, dtype=bool)
    clean[dirty] = False
    # A changed memory's own list: its NEIGHBOURS_K closest older (or same-instant) memories,
    # kept as a running top-k over the blocks its row appears in.
    k = min(NEIGHBOURS_K, max(size - 1, 1))
    best_cos = np.full((size, k), -np.inf, dtype=np.float32)
    best_col = np.full((size, k), -1, dtype=np.int64)
    theirs: list[tuple[np.ndarray[Any, Any], ...]] = []  # (candidate, neighbour, cosine)
    held = 0
    for me, cols, sims in _close_blocks(sub, dirty):
        o_me, o_col = order[me][:, None], order[cols][None, :]
        same = instant[me][:, None] == instant[cols][None, :]
        mine = np.where((o_col < o_me) | same, sims, np.float32(-np.inf))
        kk = min(k, mine.shape[1])
        top = np.argpartition(-mine, kk - 1, axis=1)[:, :kk]
        merged_cos = np.concatenate([best_cos[me], np.take_along_axis(mine, top, 1)], axis=1)
        merged_col = np.concatenate([best_col[me], cols[top]], axis=1)
        keep = np.argpartition(-merged_cos, k - 1, axis=1)[:, :k]
        best_cos[me] = np.take_along_axis(merged_cos, keep, 1)
        best_col[me] = np.take_along_axis(merged_col, keep, 1)
        # An unchanged newer (or same-instant) memory is a candidate with this one as its
        # neighbour; a changed one finds the pair from its own row.
        newer = clean[cols][None, :] & ((o_col > o_me) | same)
        at, col = np.nonzero(newer & (sims >= CONSIDER_MIN))
        theirs.append((cols[col], me[at], sims[at, col]))
        held += len(at)
        if held > _PAIRS_HELD:
            theirs = [_nearest(theirs, size)]  # memory stays bounded
            held = len(theirs[0][0])
    at, j = np.nonzero(best_cos >= CONSIDER_MIN)
    return _nearest([(at, best_col[at, j], best_cos[at, j]), *theirs], size)


def _close_blocks(sub: np.ndarray[Any, Any], dirty: np.ndarray[Any, Any]) -> Iterator[Block]:
    """(rows, columns, cosines) blocks covering every pair of a dirty row of ``sub`` with the
    rows it may be close to, a row's cosine with itself masked out. Exact (each dirty row
    against all) up to ``EXACT_MAX`` rows; above, the all-pairs product (100,000 rows: about
    4 TFLOP, minutes on two cores) gives way to a probed search."""
    blocks = _probed_blocks if len(sub) > EXACT_MAX else _exact_blocks
    yield from blocks(sub, dirty)


def _exact_blocks(sub: np.ndarray[Any, Any], dirty: np.ndarray[Any, Any]) -> Iterator[Block]:
    """Each dirty row against every row."""
    every = np.arange(len(sub))
    for start in range(0, len(dirty), 256):
        block = dirty[start : start + 256]
        sims = sub[block] @ sub.T
        sims[np.arange(len(block)), block] = -np.inf  # a memory is not its own neighbour
        yield block, every, sims


def _probed_blocks(sub: np.ndarray[Any, Any], dirty: np.ndarray[Any, Any]) -> Iterator[Block]:
    """Inverted-file search: the rows are split into about sqrt(n) cells around spherical
    k-means centroids (seeded, so a plan is reproducible), and each dirty row is compared with
    the rows of its ``PROBES`` nearest cells only. A pair is missed only when the other end
    lies outside all of them, which near-duplicates practically never do;
    ``bench/consolidate.py --check-pairs`` measures how many close pairs are found."""
    cells = max(2, int(np.sqrt(len(sub))))
    centroids = _spherical_kmeans(sub, cells, np.random.default_rng(0))
    home = np.empty(len(sub), dtype=np.int64)
    probes = np.empty((len(dirty), min(PROBES, cells)), dtype=np.int64)
    position = np.full(len(sub), -1, dtype=np.int64)
    position[dirty] = np.arange(len(dirty))
    for start in range(0, len(sub), 8192):
        scores = sub[start : start + 8192] @ centroids.T
        home[start : start + 8192] = np.argmax(scores, axis=1)
        rows = np.nonzero(position[start : start + 8192] >= 0)[0]
        if len(rows):
            near = np.argpartition(-scores[rows], probes.shape[1] - 1, axis=1)
            probes[position[start + rows]] = near[:, : probes.shape[1]]
    members = np.argsort(home, kind="stable")
    member_bounds = np.searchsorted(home[members], np.arange(cells + 1))
    asked = np.argsort(probes.ravel(), kind="stable")
    asked_bounds = np.searchsorted(probes.ravel()[asked], np.arange(cells + 1))
    for cell in range(cells):
        inside = members[member_bounds[cell] : member_bounds[cell + 1]]
        askers = dirty[asked[asked_bounds[cell] : asked_bounds[cell + 1]] // probes.shape[1]]
        if not len(inside) or not len(askers):
            continue
        for start in range(0, len(askers), 256):
            block = askers[start : start + 256]
            sims = sub[block] @ sub[inside].T
            sims[block[:, None] == inside[None, :]] = -np.inf
            yield block, inside, sims


def _spherical_kmeans(
    x: np.ndarray[Any, Any], k: int, rng: np.random.Generator, rounds: int = 8
) -> np.ndarray[Any, Any]:
    """``k`` unit centroids fitted on a sample of at most 64 rows per centroid."""
    sample = x[np.sort(rng.choice(len(x), min(len(x), 64 * k), replace=False))]
    centroids = sample[rng.choice(len(sample), k, replace=False)].copy()
    for _ in range(rounds):
        assign = np.argmax(sample @ centroids.T, axis=1)
        sums = np.zeros_like(centroids)
        np.add.at(sums, assign, sample)
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        centroids = np.where(norms > 0, sums / np.where(norms == 0, 1, norms), centroids)
    return centroids


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


def _apply_batch(tx: Tx, groups: Sequence[Group], now: str) -> list[tuple[Group, str]]:
    """Apply the groups of one namespace whose memories are unchanged since planning; return
    the others with why. Groups share no memory, so the n-th operations of all groups go
    together ("waves", a statement per kind each): a group's own operations stay in order."""
    ids = sorted({i for g in groups for i in g.members})
    current = {r["id"]: (r["status"], r["updated_at"])
               for r in tx.run("consolidation/snapshot", ids=ids, now=now)}  # fmt: skip
    ready: list[Group] = []
    changed: list[tuple[Group, str]] = []
    for group in groups:
        moved = sorted(i for i, seen in group.snapshot.items()
                       if current.get(i) != ("active", seen))  # fmt: skip
        if moved:
            changed.append((group, f"memory {moved[0]} changed since the run was planned"))
        else:
            ready.append(group)
    if not ready:
        return changed
    ns = ready[0].namespace
    for wave in range(max(len(g.operations) for g in ready)):
        ops = [g.operations[wave] for g in ready if len(g.operations) > wave]
        _apply_wave(tx, ns, ops, now)
    tx.run("decision/record", rows=[_decision_row(op, now) for g in ready for op in g.operations])
    return changed


def _apply_wave(tx: Tx, ns: str, ops: Sequence[Operation], now: str) -> None:
    merged = [{"keep": op.keep, "dup": op.other,
               "reason": "merged" if op.op == "merge" else "corrected"}
              for op in ops if op.op in ("merge", "correct")]  # fmt: skip
    if merged:
        tx.run("consolidation/merge_keep", namespace=ns, now=now, rows=merged)
        tx.run("consolidation/copy_tags", namespace=ns, now=now, rows=merged)
        tx.run("consolidation/copy_derivations", namespace=ns, now=now, rows=merged)
        tx.run("consolidation/merge_archive", namespace=ns, now=now, rows=merged)
    superseded = [{"old_id": op.other, "new_id": op.keep, "reason": op.reason}
                  for op in ops if op.op in ("supersede", "resolve")]  # fmt: skip
    if superseded:
        tx.run("memory/supersede", namespace=ns, now=now, rows=superseded)
    contradicted = [op for op in ops if op.op in ("resolve", "flag")]
    if contradicted:
        # Make sure the CONTRADICTS edge exists; mark it resolved when the newer one won.
        tx.run("link/contradicts_rows", namespace=ns, now=now,
               rows=[{"from_id": op.keep, "to_id": op.other} for op in contradicted])  # fmt: skip
    resolved = [{"a": op.keep, "b": op.other, "resolution": f"newer wins: {op.keep}"}
                for op in contradicted if op.op == "resolve"]  # fmt: skip
    if resolved:
        tx.run("consolidation/resolve", namespace=ns, now=now, rows=resolved)


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
