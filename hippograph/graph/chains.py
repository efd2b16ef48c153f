"""Supersession is a set of chains: ``new SUPERSEDES old`` always lands on the current head of
``old``'s chain and never closes a cycle.

Every writer of ``SUPERSEDES`` (the ``supersede`` mutation, the write path's SUPERSEDE decisions,
consolidation) passes its rows through ``resolve`` inside its transaction:

- ``old`` already superseded: the row is retargeted to the head of its chain (the memory that
  superseded it, and so on, until one nobody superseded), so the chain grows at its end
  instead of branching: ``X <- Y`` then ``supersede(X, Z)`` gives ``X <- Y <- Z``.
- ``new`` already on ``old``'s chain (``new`` supersedes it, directly or not): the row is
  already true and is dropped.
- ``old``'s head already on ``new``'s chain (``new`` is superseded, directly or not, by it):
  writing the row would close a cycle, whose memories would all vanish from search and recall;
  ``SupersedeCycle`` names both ids and the transaction writes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hippograph.graph.errors import SupersedeCycle
from hippograph.graph.store.store import Tx

# A guard against a cycle already in the data (written before this rule, or imported): no real
# chain of changes to one fact gets near it.
MAX_CHAIN = 10_000


class _Successors:
    """The newer memory of each memory, read one hop at a time inside the transaction and
    updated by the rows resolved so far, so a batch sees its own earlier rows."""

    def __init__(self, tx: Tx, namespace: str) -> None:
        self.tx = tx
        self.namespace = namespace
        self.known: dict[str, str | None] = {}

    def fetch(self, ids: Sequence[str]) -> None:
        missing = [i for i in dict.fromkeys(ids) if i not in self.known]
        if not missing:
            return
        for row in self.tx.run("memory/successors", namespace=self.namespace, ids=missing):
            newer = [n for n in row["newer"] or [] if n]
            last = row["superseded_by"]
            self.known[row["id"]] = last if last in newer else (sorted(newer)[0] if newer else None)
        for i in missing:
            self.known.setdefault(i, None)

    def chain(self, start: str) -> list[str]:
        """``start`` and every memory after it on its chain, oldest first."""
        path = [start]
        while len(path) <= MAX_CHAIN:
            self.fetch([path[-1]])
            nxt = self.known[path[-1]]
            if nxt is None or nxt in path:
                return path
            path.append(nxt)
        return path


def resolve(tx: Tx, namespace: str, rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The supersede ``rows`` (``old_id``, ``new_id``, ``reason``) to write, each retargeted to
    the head of its old memory's chain, those already true dropped; raise ``SupersedeCycle`` for
    one that would close a cycle."""
    successors = _Successors(tx, namespace)
    successors.fetch([r["old_id"] for r in rows] + [r["new_id"] for r in rows])
    out: list[dict[str, Any]] = []
    for row in rows:
        old_id, new_id = row["old_id"], row["new_id"]
        chain = successors.chain(old_id)
        if new_id in chain:
            continue
        head = chain[-1]
        if head in successors.chain(new_id):
            raise SupersedeCycle(old_id, new_id)
        out.append({**row, "old_id": head})
        successors.known[head] = new_id
    return out
