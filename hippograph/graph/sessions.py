"""Sessions of the episode log: which there are, and one read as a conversation, page by page.

A session is the set of turns sharing a session id; it exists while it holds a turn (clearing
it, ``graph/write/erasure.py``, leaves nothing to list). Pages walk a session forwards (oldest
first) or backwards (newest first); the cursor is the last turn index a page returned, so a
page never shifts when turns are appended meanwhile, nor when one is erased.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from dataclasses import dataclass

from hippograph.graph import validate
from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import Episode, to_episode
from hippograph.graph.store.store import Store

DIRECTIONS: tuple[str, ...] = ("forward", "backward")
_WALKS = {"forward": "episode/conversation_forward", "backward": "episode/conversation_backward"}
MAX_PAGE = 1000
MAX_SESSION_ID = 200


@dataclass(frozen=True, kw_only=True)
class SessionSummary:
    """One session: its turns, when its first and last turns were recorded (service clock),
    who spoke (speakers, or roles where no speaker was named), its first and last turn index."""

    session_id: str
    turns: int
    first_at: str
    last_at: str
    participants: tuple[str, ...]
    first_index: int
    last_index: int


@dataclass(frozen=True, kw_only=True)
class SessionPage:
    items: tuple[SessionSummary, ...]
    next_cursor: str | None


@dataclass(frozen=True, kw_only=True)
class ConversationPage:
    """Turns of one session in the order walked; ``next_cursor`` continues the walk (None at
    its end)."""

    turns: tuple[Episode, ...]
    next_cursor: str | None


def _first(first: int) -> int:
    if isinstance(first, bool) or not isinstance(first, int) or not 1 <= first <= MAX_PAGE:
        raise InvalidInput("first", f"{first!r} is outside 1..{MAX_PAGE}", limit=MAX_PAGE)
    return first


def sessions(
    store: Store, namespace: str, *, first: int = 50, after: str | None = None
) -> SessionPage:
    """The namespace's sessions, most recently active first; ``after``: a page's cursor."""
    validate.namespace(namespace)
    first = _first(first)
    after_at, after_session = _decode(after) if after else (None, None)
    rows = store.read(
        "episode/sessions",
        namespace=namespace,
        after_at=after_at,
        after_session=after_session,
        limit=first + 1,
    )
    items = [
        SessionSummary(
            session_id=r["session"],
            turns=int(r["turns"]),
            first_at=r["first_at"],
            last_at=r["last_at"],
            participants=tuple(sorted(p for p in r["participants"] if p)),
            first_index=int(r["first_index"]),
            last_index=int(r["last_index"]),
        )
        for r in rows
    ]
    more = len(items) > first
    items = items[:first]
    cursor = _encode([items[-1].last_at, items[-1].session_id]) if more and items else None
    return SessionPage(items=tuple(items), next_cursor=cursor)


def conversation(
    store: Store,
    namespace: str,
    session_id: str,
    *,
    first: int = 50,
    after: str | None = None,
    direction: str = "forward",
) -> ConversationPage:
    """One page of a session's turns. direction: ``forward`` from the first turn (oldest
    first) or ``backward`` from the last (newest first); after: the previous page's cursor.
    A session with no turns gives an empty page."""
    validate.namespace(namespace)
    session_id = validate.short_text(session_id, "sessionId", MAX_SESSION_ID)
    first = _first(first)
    direction = validate.choice(direction, DIRECTIONS, "direction")
    at = None
    if after:
        if not after.isdigit() or len(after) > 9:
            raise InvalidInput("after", "is not a cursor returned by a previous page")
        at = int(after)
    rows = store.read(
        _WALKS[direction],
        namespace=namespace,
        session_id=session_id,
        after=at,
        limit=first + 1,
    )
    turns = [to_episode(r["episode"], r["memory_ids"]) for r in rows]
    more = len(turns) > first
    turns = turns[:first]
    cursor = str(turns[-1].turn_index) if more and turns else None
    return ConversationPage(turns=tuple(turns), next_cursor=cursor)


def _encode(parts: Sequence[str]) -> str:
    return base64.urlsafe_b64encode(json.dumps(list(parts)).encode()).decode()


def _decode(cursor: str) -> tuple[str, str]:
    try:
        at, session = json.loads(base64.urlsafe_b64decode(cursor.encode()))
        return str(at), str(session)
    except (ValueError, TypeError):
        raise InvalidInput("after", "is not a cursor returned by a previous page") from None
