"""Job ``edges``: linear decay of RELATES_TO confidence after the grace period; then entity
relationships read from a memory that stopped holding end (``entity_upkeep.end_stale``).

An edge's decay is anchored at its last reinforcement (or creation). Each run works out how
many whole windows have passed since the grace period ended and subtracts only the windows not
yet applied (``decay_windows``, valid while ``decay_anchor`` equals the anchor). Subtractions
compose, so N runs give exactly ``graph.upkeep.decay.decayed_edge_confidence`` of the value stored
at the anchor, and a rerun at the same clock changes nothing. A reinforcement moves the anchor,
which restarts the count; an edge reinforced between read and write is left alone.

Adjacency edges (``kind: 'adjacent'``, consecutive turns of a session: ``formation``) never
decay: that one turn followed another does not grow less true with time, and age alone is no
evidence against it. Decaying them took a LoCoMo conversation aged by ``bench/lifecycle.py``
(conv-30, 19 sessions over months, then 90 days) from recall@10 77.8 to 71.0; without it the
aged store matches the fresh one.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from hippograph.graph.model import parse_iso, to_iso
from hippograph.graph.store.store import Tx
from hippograph.graph.upkeep import entity_upkeep
from hippograph.graph.upkeep.decay import decayed_edge_confidence
from hippograph.jobs.runner import JobContext, batches

_EPSILON = 1e-12


def run(ctx: JobContext) -> None:
    cfg = ctx.config.edges
    window = timedelta(days=cfg.window_days)
    # Edges younger than grace + one window cannot have lost anything yet.
    cutoff = to_iso(ctx.as_of - timedelta(days=cfg.grace_days) - window)
    rows = ctx.store.read("job/edges_read", namespace=ctx.namespace, cutoff=cutoff)
    keyed = sorted(((f"{r['source']}|{r['target']}", r) for r in rows), key=lambda kr: kr[0])
    changes = []
    for key, r in keyed:
        change = _decayed(ctx, r, window)
        if change is not None:
            changes.append((key, change))
        else:
            ctx.counts["unchanged"] += 1
    total = len(changes)
    todo = [(k, c) for k, c in changes if ctx.pending(k)]
    done = total - len(todo)
    ctx.progress(done, total)
    for batch in batches(todo, ctx.batch_size):
        payload = _by_source(c for _, c in batch)

        def work(tx: Tx, payload: list[dict[str, Any]] = payload) -> int:
            row = tx.run("job/edges_write", groups=payload, as_of=ctx.as_of_iso)[0]
            return int(row["updated"])

        ctx.counts["decayed"] += ctx.store.write_tx(work)
        done += len(batch)
        ctx.checkpoint(batch[-1][0], done, total)
    ended = entity_upkeep.end_stale(ctx.store, ctx.namespace, ctx.as_of_iso)
    ctx.counts.update({f"relationships_{k}": v for k, v in ended.items()})


def _by_source(changes: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The writes grouped by source memory, each target's write keyed by its id: the statement
    finds each source once and walks its edges (~3x faster than finding both ends per edge)."""
    groups: dict[str, dict[str, dict[str, Any]]] = {}
    for c in changes:
        groups.setdefault(c["source"], {})[c["target"]] = {
            "anchor": c["anchor"],
            "windows": c["windows"],
            "confidence": c["confidence"],
        }
    return [{"source": source, "edges": edges} for source, edges in groups.items()]


def _decayed(ctx: JobContext, r: dict[str, Any], window: timedelta) -> dict[str, Any] | None:
    """The write for one edge, or None when no new window has passed."""
    cfg = ctx.config.edges
    anchor = parse_iso(r["anchor"])
    applied = int(r["decay_windows"]) if r["decay_anchor"] == r["anchor"] else 0
    past_grace = ctx.as_of - anchor - timedelta(days=cfg.grace_days)
    windows = past_grace // window if past_grace >= timedelta(0) else 0
    if windows <= applied:
        return None
    confidence = float(r["confidence"])
    decayed = decayed_edge_confidence(confidence, anchor + applied * window, ctx.as_of, config=cfg)
    if abs(decayed - confidence) <= _EPSILON and confidence <= cfg.floor:
        return None  # resting at the floor: only a reinforcement can change it now
    return {
        "source": r["source"],
        "target": r["target"],
        "anchor": r["anchor"],
        "windows": windows,
        "confidence": decayed,
    }
