"""What each memory of a batch was said after: the previous memory of its session.

A memory with a source session is indexed with the words of the memory before it in that
session (`fulltext.indexed`), so that a reply is found by what it answers. The previous memory
is the one before it in the batch from the same session (a session sent whole, in order), or,
for the first of its session in the batch, the one of that session written last before it (a
session sent turn by turn): of the session's latest batch, the one with the highest turn number
below this one's (`formation.turn_number`: "D3:5" -> 5), or the last one when turns carry no
number. One read per batch, only when the batch holds a session's first memory; a turn that
arrives late (the session's latest batch holds a turn numbered after it) takes the stored turn
numbered last before it, found in two more reads (the session's turn references, then the
memories before and after it), never a turn said after it; and the stored turn numbered first
after it is indexed again, in the same write, with the batch's turn said last before that one
(only if that turn is stored: one the store already held lends nothing). A turn numbered
after every turn of the latest batch while an older batch holds a later one (6 and 7 sent,
then 4, then 5) takes its context from the latest batch (4) and leaves the turn after it (6)
as it is: noticing that would cost a read of the session's turns on every turn-by-turn write.
The memory before lends its words only if it is seen wherever this one is (global, or the
same project or session scope): a memory is never found by the words of one its finder may
not see.

Only a turn said after a turn, both of conversational length (MAX_CHARS: about what the
embedding model reads, `CascadeConfig.long_memory_chars`), takes a context: a long memory (an
assistant's answer, a document) stands on its own, and a short turn after a long one takes a
handful of its words at most. Without this bound, on BEAM dev (user-assistant chats, answers
~4 KB) recall@10 fell from 64.9% to 63.8% (instruction following 56.2% -> 45.0%, under vector
search's 51.2%), each user turn matching the words of the whole answer before it.
"""

from __future__ import annotations

from collections.abc import Sequence

from hippograph.graph.memories import scope_key
from hippograph.graph.model import NewMemory
from hippograph.graph.store.store import Row, Store
from hippograph.graph.text import fulltext
from hippograph.graph.write.formation import turn_number

MAX_CHARS = 1000


def contexts(
    store: Store, namespace: str, items: Sequence[NewMemory]
) -> tuple[list[str], dict[int, list[Row]]]:
    """Per item, the content of the memory said before it in its session ("" if none, if
    either is longer than MAX_CHARS, or if the one before is not seen wherever the item is:
    `_lends`); and the stored turns an item arriving late is now the one said before: item
    index -> [{id, ft_terms}], their full-text words again with that item as their context
    (the caller writes them with the item, only if the item is stored). Those are found only
    where the session's turns are read anyway: a batch's first turn of a session whose latest
    batch holds a turn numbered after it."""
    contexts = [""] * len(items)
    followers: dict[int, list[Row]] = {}
    last: dict[str, tuple[str, str]] = {}  # session -> its latest item so far, and its scope key
    first: dict[str, list[int]] = {}  # session -> its items that wait for a stored context
    for i, item in enumerate(items):
        session = item.source.session_id
        if session is None:
            continue
        reach = scope_key(item)
        if session in last:
            content, lender = last[session]
            contexts[i] = content if _lends(lender, reach) else ""
        else:
            first.setdefault(session, []).append(i)
        last[session] = (item.content, reach)
    if not first:
        return contexts, followers
    rows = store.read("memory/session_latest", namespace=namespace, sessions=list(first))
    stored: dict[str, list[Row]] = {}
    for row in rows:
        stored.setdefault(row["session"], []).append(row)
    for session, indices in first.items():
        for i in indices:
            rows = stored.get(session, [])
            messages = items[i].source.messages
            before = _before(rows, messages)
            turn = turn_number(messages)
            if turn is not None and any(
                (n := turn_number(r["messages"])) is not None and n > turn for r in rows
            ):
                before, after = _around(store, namespace, session, messages)
                if after is not None:
                    j = _said_last_before(items, session, int(after["turn"]), i)
                    followers[j] = [_reindexed(namespace, items[j], after)]
            if before is not None and _lends(before["scope_key"], scope_key(items[i])):
                contexts[i] = str(before["content"] or "")
    bounded = [
        c if _conversational(c, item.content) else ""
        for c, item in zip(contexts, items, strict=True)
    ]
    return bounded, followers


def _said_last_before(items: Sequence[NewMemory], session: str, turn: int, default: int) -> int:
    """The index of the batch's turn of ``session`` numbered last below ``turn``."""
    best, found = default, -1
    for j, item in enumerate(items):
        n = turn_number(item.source.messages) if item.source.session_id == session else None
        if n is not None and found < n < turn:
            best, found = j, n
    return best


def _reindexed(namespace: str, item: NewMemory, after: Row) -> Row:
    """The full-text words of the stored turn ``after`` said after ``item``: its own words and,
    within the same bounds as ``contexts``, the item's."""
    content = str(after["content"] or "")
    lent = _lends(scope_key(item), str(after["scope_key"])) and _conversational(
        item.content, content
    )
    terms = fulltext.indexed(namespace, content, item.content if lent else "")
    return {"id": after["id"], "ft_terms": terms}


def _before(rows: list[Row], messages: str | None) -> Row | None:
    """The row said last before the turn ``messages`` (None: none)."""
    turn = turn_number(messages)
    numbered = [(n, r) for r in rows if (n := turn_number(r["messages"])) is not None]
    if turn is not None and numbered:
        earlier = [(n, r) for n, r in numbered if n < turn]
        return max(earlier, key=lambda nr: nr[0])[1] if earlier else None
    return rows[-1] if rows else None


def _around(
    store: Store, namespace: str, session: str, messages: str | None
) -> tuple[Row | None, Row | None]:
    """The stored memories of ``session`` numbered last before and first after the turn
    ``messages``, with their content and scope key (None: none is)."""
    turns = store.read("memory/session_turns", namespace=namespace, session=session)
    turn = turn_number(messages)
    before = _before(turns, messages)
    later = [
        (n, r)
        for r in turns
        if (n := turn_number(r["messages"])) is not None and turn is not None and n > turn
    ]
    after = min(later, key=lambda nr: nr[0])[1] if later else None
    ids = [r["id"] for r in (before, after) if r is not None]
    found = store.read("memory/get_many", namespace=namespace, ids=ids) if ids else []
    by_id = {r["memory"]["id"]: dict(r["memory"]) for r in found}
    following = by_id.get(after["id"]) if after is not None else None
    if following is not None and after is not None:
        following["turn"] = turn_number(after["messages"])
    return by_id.get(before["id"]) if before is not None else None, following


def _conversational(context: str, content: str) -> bool:
    """Whether a turn takes a context: both of conversational length (MAX_CHARS)."""
    return len(context) <= MAX_CHARS and len(content) <= MAX_CHARS


def _lends(lender: str | None, borrower: str) -> bool:
    """Whether a memory of scope key ``lender`` (`memories.scope_key`) may index one of scope
    key ``borrower`` with its words: only if everyone who can find the borrower can see the
    lender (a global one, or the same project or session), or a recall outside a session would
    find a global memory by the words of a memory of that session, which it may not see."""
    return lender == "global" or lender == borrower
