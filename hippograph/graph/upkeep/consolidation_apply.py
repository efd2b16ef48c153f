"""Applying a planned consolidation: per transaction, the groups of one namespace whose memories
are unchanged since planning, their operations in waves (the n-th of every group together, a
statement per kind), a ``Decision`` record for each; and the archiving of weak memories."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from hippograph.graph import chains
from hippograph.graph.store.store import Tx
from hippograph.graph.upkeep.consolidation_model import Group, Operation


def apply_batch(tx: Tx, groups: Sequence[Group], now: str) -> list[tuple[Group, str]]:
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
        apply_wave(tx, ns, ops, now)
    tx.run("decision/record", rows=[_decision_row(op, now) for g in ready for op in g.operations])
    return changed


def apply_wave(tx: Tx, ns: str, ops: Sequence[Operation], now: str) -> None:
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
        # Every member is active when applied and a run retires each memory at most once, so
        # no row can close a cycle; resolve still guards it like every other writer.
        superseded = chains.resolve(tx, ns, superseded)
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


def archive_weak(tx: Tx, weak: Sequence[tuple[Operation, str]], now: str) -> set[str]:
    """Archive the weak memories still as they were when planned (a reinforced one is not)."""
    rows = [{"id": op.other, "updated_at": seen} for op, seen in weak]
    archived = {r["id"] for r in tx.run("consolidation/archive_weak", rows=rows, now=now)}
    decisions = [_decision_row(op, now) for op, _ in weak if op.other in archived]
    if decisions:
        tx.run("decision/record", rows=decisions)
    return archived
