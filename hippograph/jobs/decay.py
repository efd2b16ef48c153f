"""Job ``decay``: recompute every active memory's confidence; archive unconfirmed speculation.

confidence = initial x e^(-age_days / half_life) x (1 + 0.1 ln(access_count + 1)) x trust
(``graph.upkeep.decay.memory_confidence``), with age counted on service time from the memory's
last use: the latest of when the service learned it (``recorded_at``; ``created_at`` on a store
older than it), last access and last reinforcement; never from event time, or a memory about
the past would be stale on arrival. The value is a function of the stored
inputs and the run's clock only, so rewriting it is idempotent.

Speculative means *stored* with low confidence: ``initial_confidence`` (as stated, adjusted by
feedback) under 0.4, not today's decayed value, or every fact would be archived a month after
fading. Confirmed means stated again (strength > 1) or rated helpful (``confirmed_at``). Such a
memory is archived ``confirm_within_days`` after it was learned, without a tombstone, so stating it
again later stores it afresh.
"""

from __future__ import annotations

import logging
from typing import Any

from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import parse_iso
from hippograph.graph.store.store import Row, Tx
from hippograph.graph.upkeep.decay import memory_confidence, should_archive_speculative
from hippograph.jobs.runner import JobContext, batches

log = logging.getLogger(__name__)
_EPSILON = 1e-9


def run(ctx: JobContext) -> None:
    rows = ctx.store.read("job/decay_read", namespace=ctx.namespace)
    rows.sort(key=lambda r: str(r["id"]))
    total = len(rows)
    todo = [r for r in rows if ctx.pending(r["id"])]
    done = total - len(todo)
    ctx.progress(done, total)
    for batch in batches(todo, ctx.batch_size):
        updates, archive = plan(ctx, batch)

        def work(tx: Tx, updates: list[dict[str, Any]] = updates, ids: list[str] = archive) -> None:
            if updates:
                row = tx.run("job/decay_write", rows=updates, as_of=ctx.as_of_iso)[0]
                ctx.counts["updated"] += int(row["updated"])
            if ids:
                row = tx.run("job/decay_archive", ids=ids, as_of=ctx.as_of_iso)[0]
                ctx.counts["archived"] += int(row["archived"])

        ctx.store.write_tx(work)
        done += len(batch)
        ctx.checkpoint(str(batch[-1]["id"]), done, total)


def plan(ctx: JobContext, batch: Any) -> tuple[list[dict[str, Any]], list[str]]:
    """The confidence writes and the archive list for one batch of memories."""
    updates: list[dict[str, Any]] = []
    archive: list[str] = []
    for r in batch:
        try:
            confidence = _confidence(ctx, r)
        except (InvalidInput, ValueError, TypeError):
            ctx.counts["skipped"] += 1
            log.warning("decay: memory %s has unusable inputs; left as it is", r["id"])
            continue
        initial = float(r["initial"])
        confirmed = int(r["strength"]) > 1 or r["confirmed_at"] is not None
        learned = parse_iso(r["learned_at"])
        if should_archive_speculative(
            initial, learned, confirmed, ctx.as_of, config=ctx.config.decay
        ):
            archive.append(r["id"])
        elif r["confidence"] is None or abs(float(r["confidence"]) - confidence) > _EPSILON:
            updates.append(
                {
                    "id": r["id"],
                    "confidence": confidence,
                    "access_count": r["access_count"],
                    "initial": r["initial"],
                }
            )
        else:
            ctx.counts["unchanged"] += 1
    return updates, archive


def _confidence(ctx: JobContext, r: Row) -> float:
    used = [
        parse_iso(t) for t in (r["learned_at"], r["last_accessed"], r["last_reinforced_at"]) if t
    ]
    return memory_confidence(
        initial=float(r["initial"]),
        memory_type=str(r["memory_type"]),
        provenance=str(r["provenance"]),
        last_used_at=max(used),
        now=ctx.as_of,
        access_count=int(r["access_count"]),
        trust=float(r["trust"]),
        config=ctx.config.decay,
    )
