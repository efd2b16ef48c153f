"""What each memory of a batch was said after: the previous memory of its session.

A memory with a source session is indexed with the words of the memory before it in that
session (`fulltext.indexed`), so that a reply is found by what it answers. The previous memory
is the one before it in the batch from the same session (a session sent whole, in order), or,
for the first of its session in the batch, the one of that session written last before it (a
session sent turn by turn): of the session's latest batch, the one with the highest turn number
below this one's (`formation.turn_number`: "D3:5" -> 5), or the last one when turns carry no
number. One read per batch, only when the batch holds a session's first memory.

Only a turn said after a turn, both of conversational length (MAX_CHARS: about what the
embedding model reads, `CascadeConfig.long_memory_chars`), takes a context: a long memory (an
assistant's answer, a document) stands on its own, and a short turn after a long one takes a
handful of its words at most. Without this bound, on BEAM dev (user-assistant chats, answers
~4 KB) recall@10 fell from 64.9% to 63.8% (instruction following 56.2% -> 45.0%, under vector
search's 51.2%), each user turn matching the words of the whole answer before it.
"""

from __future__ import annotations

from collections.abc import Sequence

from hippograph.graph.model import NewMemory
from hippograph.graph.store.store import Row, Store
from hippograph.graph.write.formation import turn_number

MAX_CHARS = 1000


def previous(store: Store, namespace: str, items: Sequence[NewMemory]) -> list[str]:
    """Per item, the content of the memory said before it in its session ("" if none, or if
    either is longer than MAX_CHARS)."""
    contexts = [""] * len(items)
    last: dict[str, str] = {}  # session -> the content of its latest item so far
    first: dict[str, list[int]] = {}  # session -> its items that wait for a stored context
    for i, item in enumerate(items):
        session = item.source.session_id
        if session is None:
            continue
        if session in last:
            contexts[i] = last[session]
        else:
            first.setdefault(session, []).append(i)
        last[session] = item.content
    if not first:
        return contexts
    rows = store.read("memory/session_latest", namespace=namespace, sessions=list(first))
    stored: dict[str, list[Row]] = {}
    for row in rows:
        stored.setdefault(row["session"], []).append(row)
    for session, indices in first.items():
        for i in indices:
            contexts[i] = _before(stored.get(session, []), items[i].source.messages)
    return [
        c if len(c) <= MAX_CHARS and len(item.content) <= MAX_CHARS else ""
        for c, item in zip(contexts, items, strict=True)
    ]


def _before(rows: list[Row], messages: str | None) -> str:
    """The content of the row said last before the turn ``messages``."""
    turn = turn_number(messages)
    numbered = [
        (n, str(r["content"] or "")) for r in rows if (n := turn_number(r["messages"])) is not None
    ]
    if turn is not None and numbered:
        earlier = [(n, c) for n, c in numbered if n < turn]
        return max(earlier, key=lambda nc: nc[0])[1] if earlier else ""
    return str(rows[-1]["content"] or "") if rows else ""
