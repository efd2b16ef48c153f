"""The ids memories get when they are created: derived from what the log holds, so ``rebuild``,
replaying the log, gives every memory it reconstructs the id it had.

- An explicit remember: item ``i`` of ``RememberEvent`` ``E`` becomes ``uuid5(namespace|E|i)``.
- An extracted fact or a piece of a long turn: ``uuid5(namespace|episode uids|content hash|n)``,
  the uids of the turns it came from, its content's hash, and ``n`` counting the same pair
  earlier in the batch. Extraction is not chunked the same way at ingest and at rebuild, so
  nothing about the chunk enters the id.

An item whose outcome is not a new memory (NOOP, UPDATE: it lands in an existing one) leaves
its id unused; the client was given the target's id, which is stable in turn.

Stores written before ids were derived: at its first rebuild each RememberEvent is given the
ids its items are replayed under (``RememberEvent.ids``): the random ids its remember gave, as
its ``Decision`` records still hold them, else these. Facts such a store extracted get these
ids at that first rebuild (new ones), and keep them from then on.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Sequence

from hippograph.graph.model import NewMemory, content_hash

# Fixed: changing it would change every derived id.
_ROOT = uuid.UUID("6b1f0d2e-5c1a-4f4e-9a51-2f6f1c7d9e30")


def remembered(namespace: str, event_id: str, count: int) -> list[str]:
    """The ids of the ``count`` items of the RememberEvent ``event_id``."""
    return [str(uuid.uuid5(_ROOT, f"{namespace}|remember|{event_id}|{i}")) for i in range(count)]


def extracted(
    namespace: str, items: Sequence[NewMemory], episodes: Sequence[Sequence[str]]
) -> list[str]:
    """The ids of facts extracted from episodes (``episodes[i]``: the uids item ``i`` came
    from)."""
    seen: Counter[tuple[str, str]] = Counter()
    found = []
    for item, uids in zip(items, episodes, strict=True):
        key = ("+".join(sorted(uids)), content_hash(item.content))
        found.append(str(uuid.uuid5(_ROOT, f"{namespace}|extract|{key[0]}|{key[1]}|{seen[key]}")))
        seen[key] += 1
    return found
