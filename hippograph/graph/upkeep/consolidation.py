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
  less trusted by more than ``CONTRADICTION_MARGIN`` confidence, or the older is too long to
  retire (``statements.retirable``: all else it says would leave recall with it); then both
  stay, flagged.

Entities that name one thing are proposed for a merge in the report (``entity_merges``), dry
run or not, and never merged by the run (``entity_upkeep``: a wrong merge is worse than a missed
one; ``mergeEntities`` accepts a proposal).

Weak memories (confidence < 0.05 and strength <= 1 by default) outside every group are archived,
never deleted. Groups are applied up to ``BATCH`` to a transaction, which first checks their
memories are unchanged since planning and skips a group whose memories changed; a batch whose
transaction fails is retried group by group. A group that fails is reported and leaves the
watermark where it was, so the next run retries it. A second run over the same graph finds
nothing to do (idempotent) and, with nothing changed since the watermark, reads no embedding.
Each run writes a ``ConsolidationRun`` node; a dry run returns the plan and writes nothing.

Scale: a bucket of up to ``EXACT_MAX`` memories is searched exactly; a larger one through
k-means cells (``close_pairs.probed_blocks``). A batch applies one statement per kind of operation.
100,000 memories: see ``bench/consolidate.py``.

This module runs it (gate, lock, batches, the run record); the plan is
``consolidation_plan`` (close pairs: ``close_pairs``), the writes ``consolidation_apply``, the
records ``consolidation_model``.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from hippograph.graph import validate
from hippograph.graph.errors import HippographError
from hippograph.graph.model import now_iso, parse_iso
from hippograph.graph.store import lease
from hippograph.graph.store.store import Row, Store, Tx
from hippograph.graph.upkeep import entity_upkeep
from hippograph.graph.upkeep.consolidation_apply import apply_batch, archive_weak
from hippograph.graph.upkeep.consolidation_model import (
    DEFAULT_CONSOLIDATION,
    ConsolidationConfig,
    ConsolidationReport,
    Group,
    Operation,
)
from hippograph.graph.upkeep.consolidation_plan import plan
from hippograph.graph.write.decide import BudgetedDecider, Decider

log = logging.getLogger(__name__)

ALL = "*"
MAX_RECORDED_OPERATIONS = 1000
BATCH = 500  # groups applied in one transaction


Observer = Callable[[Sequence[Group]], None]
Progress = Callable[[int, int], None]


def consolidate(
    store: Store,
    *,
    namespace: str | None = None,
    config: ConsolidationConfig = DEFAULT_CONSOLIDATION,
    decider: Decider | None = None,
    dry_run: bool = False,
    force: bool = False,
    before_apply: Observer | None = None,
    progress: Progress | None = None,
    lock_lease: timedelta = lease.DEFAULT_LEASE,
) -> ConsolidationReport:
    """One consolidation run over ``namespace`` (None: every namespace).

    dry_run: plan only (gate reported, lock not taken, nothing written).
    force: ignore the time and volume gate (never the lock).
    before_apply: called with the planned groups before any is applied (tests).
    progress: called with (groups applied, groups planned) after each batch.
    lock_lease: how long the lock outlives a holder that stops renewing it (it was killed).
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
        report = _report(
            None, False, True, scope, skipped, started, counts, ops, [], watermark, None
        )
        return _with_entity_merges(store, namespace, report)
    with lease.held(store, lease.new_holder("consolidate"), started, lock_lease):
        return _run(
            store, namespace, scope, started, watermark, config, decider, before_apply, progress
        )


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
            failed = store.write_tx(lambda tx, b=batch: apply_batch(tx, b, started))  # type: ignore[misc]
        except HippographError:
            # One group spoils its batch's transaction: apply them one by one, so only it fails.
            failed = []
            for group in batch:
                try:
                    failed += store.write_tx(lambda tx, g=group: apply_batch(tx, [g], started))  # type: ignore[misc]
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
        archived = store.write_tx(lambda tx: archive_weak(tx, weak, started))
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
    report = _report(
        run_id, True, False, scope, None, started, counts, done, errors, watermark, after
    )
    return _with_entity_merges(store, namespace, report)


def _with_entity_merges(
    store: Store, namespace: str | None, report: ConsolidationReport
) -> ConsolidationReport:
    spaces = [namespace] if namespace is not None else [
        str(r["namespace"]) for r in store.read("entity/namespaces")
    ]  # fmt: skip
    found = tuple(p for ns in spaces for p in entity_upkeep.merge_proposals(store, ns))
    counts = {**report.counts, "entity_merges_proposed": len(found)}
    return dataclasses.replace(report, entity_merges=found, counts=counts)


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


def runs(store: Store, scope: str | None = None, first: int = 20) -> list[dict[str, Any]]:
    """The latest ``ConsolidationRun`` records, newest first."""
    rows = store.read("consolidation/runs", scope=scope, limit=first)
    return [dict(r["run"]) for r in rows]
