"""Graph formation: the structure expansion follows.

- Tags at write time (`infer_tags`): entities, keywords, file paths and, for conversation
  memories written as "Speaker: text", the speaker (``speaker:<name>`` plus the name).
- Adjacency (`link_adjacent`): consecutive turns of one conversation session get a
  ``RELATES_TO {kind: 'adjacent'}`` edge; on LoCoMo this is the strongest single graph signal
  (the answer is often the reply to the turn that matches the question).
- Clusters come from the cluster job; co-use links from reported use (`feedback.use`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial

from hippograph.graph.model import NewMemory, now_iso
from hippograph.graph.store.store import Store, Tx
from hippograph.graph.write import tagging

_SPEAKER = re.compile(r"^([A-Z][\w.'-]*(?: [A-Z][\w.'-]*){0,2}):\s+\S")
_TURN = re.compile(r"(?:^|:)(\d+)(?:\s*-\s*\d+)?$")
ADJACENT_WEIGHT = 1.0
SESSIONS_PER_BATCH = 200


def speaker_of(item: NewMemory) -> str | None:
    """The speaker of a conversation memory written as "Name: text" (needs a source session)."""
    if item.source.session_id is None:
        return None
    match = _SPEAKER.match(item.content)
    return match.group(1) if match else None


def infer_tags(item: NewMemory) -> Sequence[str]:
    return tagging.infer_tags(
        item.content, speaker=speaker_of(item), file_paths=item.source.file_paths
    )


def turn_number(messages: str | None) -> int | None:
    """The position of a turn from its source reference: "12", "12-15", "D3:5" -> 12, 12, 5."""
    if not messages:
        return None
    match = _TURN.search(messages.strip())
    return int(match.group(1)) if match else None


def link_adjacent(store: Store, namespace: str) -> int:
    """Link consecutive turns in every session that has unlinked memories; idempotent.

    Returns the number of adjacency edges written (existing ones are left as they are).
    """
    linked = 0
    while True:
        sessions = [
            r["session"]
            for r in store.read(
                "formation/unlinked_sessions", namespace=namespace, limit=SESSIONS_PER_BATCH
            )
        ]
        if not sessions:
            return linked
        rows = store.read("formation/session_members", namespace=namespace, sessions=sessions)
        by_session: dict[str, list[tuple[int, str, str]]] = {}
        for row in rows:
            turn = turn_number(row["messages"])
            if turn is not None:
                by_session.setdefault(row["session"], []).append(
                    (turn, row["created_at"], row["id"])
                )
        pairs = []
        for members in by_session.values():
            members.sort()
            pairs += [
                {"from_id": a[2], "to_id": b[2], "weight": ADJACENT_WEIGHT}
                for a, b in zip(members, members[1:], strict=False)
            ]
        store.write_tx(partial(_link_batch, namespace, pairs, [r["id"] for r in rows], now_iso()))
        linked += len(pairs)


def _link_batch(
    namespace: str, pairs: list[dict[str, object]], ids: list[str], now: str, tx: Tx
) -> None:
    """One session batch in one transaction: its edges and the stamps that say it is done."""
    if pairs:
        tx.run("formation/link_adjacent", namespace=namespace, pairs=pairs, now=now)
    tx.run("formation/stamp_linked", namespace=namespace, ids=ids, now=now)
