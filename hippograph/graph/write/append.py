"""Appending messages to the episode log: one atomic batch, in order, idempotent.

A message's place is (session, turn index): given by the client, or, when absent, the next
index after the session's last turn (read in the appending transaction; a concurrent append
that took the same index makes the transaction retry, reading the tail again). A message with
a client message id already in the session is a duplicate wherever it would land; one whose
(session, turn index) already holds the same message is a duplicate too; one that holds
another message is a ``TurnConflict`` and the batch writes nothing. A message that was erased
(``graph/write/erasure.py``: a tombstone keeps its hash) is not stored again: a platform that
re-sends the whole transcript at each call does not bring it back.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hippograph.graph import validate
from hippograph.graph.errors import Conflict, TurnConflict
from hippograph.graph.model import now_iso
from hippograph.graph.store.store import Row, Store, Tx
from hippograph.graph.write import messages, signals
from hippograph.graph.write.messages import NewTurn
from hippograph.graph.write.writepath import WritePolicy

APPEND_ATTEMPTS = 5


@dataclass(frozen=True, kw_only=True)
class TurnRef:
    """Where one sent message is: its stable ``id`` (empty when erased), its session and turn
    index, and the ``outcome``: ``stored``, ``duplicate`` or ``erased`` (not stored again)."""

    id: str
    session_id: str
    turn_index: int | None
    outcome: str


class _Raced(Conflict):
    """A message appended without an index met one a concurrent append put there first: the
    transaction rolls back and the next attempt reads the session's tail again."""


def uid(namespace: str, session_id: str, turn_index: int) -> str:
    return f"{namespace}|{session_id}|{turn_index}"


def fingerprint(namespace: str, turn: NewTurn) -> str:
    """The hash an erased message leaves in its tombstone: namespace, session, text and tool
    parts (never the text itself)."""
    parts = [
        namespace,
        turn.session_id,
        turn.text,
        messages.stored(turn).get("tool_calls"),
        messages.stored(turn).get("tool_results"),
    ]
    return _sha(json.dumps(parts, ensure_ascii=False))


def append(
    store: Store, namespace: str, turns: Sequence[NewTurn], *, policy: WritePolicy
) -> list[TurnRef]:
    """Store messages in the log (validated and privacy-filtered first; the batch is atomic).

    Returns one ``TurnRef`` per message sent, in order. A message already in the log is left
    exactly as it was: the log is never edited.
    """
    validate.namespace(namespace)
    validate.batch_size(len(turns), policy.limits, "turns")
    keep = policy.content_filter
    clean = [messages.check(t, f"turns[{i}]", policy.limits, keep) for i, t in enumerate(turns)]
    unique_turns(t for t in clean if t.turn_index is not None)  # conflicts inside the batch
    for attempt in range(APPEND_ATTEMPTS):
        try:
            return store.write_tx(lambda tx: _append(tx, namespace, clean))
        except Conflict as exc:
            # A concurrent ingest created some of these turns between our MERGE's read and its
            # write (the uid is unique): once it committed, the retry finds them as duplicates.
            if isinstance(exc, TurnConflict) or attempt + 1 == APPEND_ATTEMPTS:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _append(tx: Tx, namespace: str, clean: list[NewTurn]) -> list[TurnRef]:
    refs: list[TurnRef | None] = [None] * len(clean)
    erased = _erased(tx, namespace, clean)
    known = _known_messages(tx, namespace, clean)
    tails = _tails(tx, namespace, clean)
    placed: dict[tuple[str, int], tuple[int, NewTurn, bool]] = {}
    seen_ids: dict[tuple[str, str], int] = {}
    for i, turn in enumerate(clean):
        if fingerprint(namespace, turn) in erased:
            refs[i] = TurnRef(
                id="", session_id=turn.session_id, turn_index=turn.turn_index, outcome="erased"
            )
            continue
        if turn.message_id is not None:
            found = known.get(_message_key(namespace, turn))
            if found is not None:
                _same(found, turn)
                refs[i] = TurnRef(
                    id=found["id"],
                    session_id=turn.session_id,
                    turn_index=int(found["turn_index"]),
                    outcome="duplicate",
                )
                continue
            first = seen_ids.setdefault((turn.session_id, turn.message_id), i)
            if first != i:  # the same message id twice in the batch
                refs[i] = replace(_ref(refs, first), outcome="duplicate")
                continue
        auto = turn.turn_index is None
        index = tails.get(turn.session_id, -1) + 1 if auto else int(turn.turn_index or 0)
        tails[turn.session_id] = max(tails.get(turn.session_id, -1), index)
        here = replace(turn, turn_index=index)
        key = (turn.session_id, index)
        if key in placed:  # the same (session, index) twice in the batch, same message
            refs[i] = TurnRef(
                id="", session_id=turn.session_id, turn_index=index, outcome="duplicate"
            )
            continue
        placed[key] = (i, here, auto)
    now = now_iso()
    batch = str(uuid.uuid4())
    rows = [
        {"uid": uid(namespace, t.session_id, k[1]), "props": _props(namespace, t, now)}
        for k, (_, t, _) in placed.items()
    ]
    created = tx.run("episode/append", rows=rows, batch=batch) if rows else []
    by_uid = {
        uid(namespace, t.session_id, k[1]): (i, t, auto) for k, (i, t, auto) in placed.items()
    }
    for row in created:
        i, turn, auto = by_uid[row["uid"]]
        if not row["created"]:
            if auto:
                raise _Raced(f"turn {turn.turn_index} of {turn.session_id!r} was just taken")
            _same(row, turn)
        refs[i] = TurnRef(
            id=str(row["id"]),
            session_id=turn.session_id,
            turn_index=turn.turn_index,
            outcome="stored" if row["created"] else "duplicate",
        )
    for i, ref in enumerate(refs):
        if ref is not None and ref.outcome == "duplicate" and not ref.id:
            twin = next(
                r
                for r in created
                if by_uid[r["uid"]][1].session_id == ref.session_id
                and by_uid[r["uid"]][1].turn_index == ref.turn_index
            )
            refs[i] = replace(ref, id=str(twin["id"]))
    tx.run("episode/chain", pairs=_pairs(namespace, [t for _, t, _ in placed.values()]))
    return [_ref(refs, i) for i in range(len(refs))]


def _ref(refs: list[TurnRef | None], i: int) -> TurnRef:
    ref = refs[i]
    assert ref is not None
    return ref


def _pairs(namespace: str, turns: Sequence[NewTurn]) -> list[dict[str, str]]:
    """``NEXT`` edges from each turn's predecessor and to its successor (when they exist)."""
    pairs = []
    for t in turns:
        index = int(t.turn_index or 0)
        here = uid(namespace, t.session_id, index)
        if index > 0:
            pairs.append({"prev": uid(namespace, t.session_id, index - 1), "next": here})
        pairs.append({"prev": here, "next": uid(namespace, t.session_id, index + 1)})
    return pairs


def _erased(tx: Tx, namespace: str, turns: Sequence[NewTurn]) -> set[str]:
    hashes = [fingerprint(namespace, t) for t in turns]
    return {
        str(r["hash"]) for r in tx.run("episode/erased_turns", namespace=namespace, hashes=hashes)
    }


def _message_key(namespace: str, turn: NewTurn) -> str:
    return f"{namespace}|{turn.session_id}|{turn.message_id}"


def _known_messages(tx: Tx, namespace: str, turns: Sequence[NewTurn]) -> dict[str, Row]:
    keys = [_message_key(namespace, t) for t in turns if t.message_id is not None]
    if not keys:
        return {}
    return {str(r["key"]): r for r in tx.run("episode/by_message_keys", keys=keys)}


def _tails(tx: Tx, namespace: str, turns: Sequence[NewTurn]) -> dict[str, int]:
    sessions = sorted({t.session_id for t in turns if t.turn_index is None})
    if not sessions:
        return {}
    rows = tx.run("episode/session_tails", namespace=namespace, sessions=sessions)
    return {str(r["session"]): int(r["last"]) for r in rows if r["last"] is not None}


def _same(row: Row, turn: NewTurn) -> None:
    """Raise ``TurnConflict`` when the stored message ``row`` is not ``turn``."""
    parts = messages.stored(turn)
    stored = (row["text"], row.get("tool_calls"), row.get("tool_results"))
    if stored != (turn.text, parts.get("tool_calls"), parts.get("tool_results")):
        # Raised inside the transaction: it rolls back, the batch writes nothing.
        index = int(row.get("turn_index") or turn.turn_index or 0)
        raise TurnConflict(turn.session_id, index, _sha(str(row["text"])), _sha(turn.text))


def unique_turns(turns: Iterable[NewTurn]) -> list[NewTurn]:
    """The turns with each (session, turn index) once: a repeat with the same text is dropped
    (counted as a duplicate), one with another text is a ``TurnConflict``. A turn without an
    index is always kept (the server places it)."""
    seen: dict[tuple[str, int], NewTurn] = {}
    out: list[NewTurn] = []
    for turn in turns:
        if turn.turn_index is None:
            out.append(turn)
            continue
        key = (turn.session_id, turn.turn_index)
        first = seen.setdefault(key, turn)
        if first is turn:
            out.append(turn)
        elif first.text != turn.text:
            raise TurnConflict(turn.session_id, turn.turn_index, _sha(first.text), _sha(turn.text))
    return out


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _props(namespace: str, turn: NewTurn, now: str) -> dict[str, Any]:
    signal = signals.score(turn.text)
    props: dict[str, Any] = {
        "id": str(uuid.uuid4()),
        "namespace": namespace,
        "session_id": turn.session_id,
        "turn_index": turn.turn_index,
        "speaker": turn.speaker or turn.role,
        "role": turn.role,
        "text": turn.text,
        "said_at": turn.timestamp,
        "file_paths": list(turn.file_paths),
        "recorded_at": now,
        "high_signal": signal.high,
        "signal_kinds": list(signal.kinds),
        "message_id": turn.message_id,
        "message_key": None if turn.message_id is None else _message_key(namespace, turn),
        **messages.stored(turn),
    }
    return {k: v for k, v in props.items() if v is not None and v != []}
