"""The raw stream: conversation turns stored as an append-only ``Episode`` log, then extracted.

An ``Episode`` is one turn: ``uid = namespace|session|turn index`` makes ``ingest`` idempotent
(a re-sent turn is a duplicate; the same uid with another text is a ``TurnConflict``),
``NEXT`` edges chain consecutive turns of a session, and its text is privacy-filtered before it
is stored. The turn's content fields are never edited; the only property set later is the
extraction mark (``extracted_at``, ``extractor``), which is what makes the log a buffer.

Extraction picks up buffered turns: a session's turns are extracted as soon as one of them
carries a high signal (preference, correction, decision, commitment, never/always, "remember
that"), together with the turns before it so the order of facts is kept; otherwise once the
session holds ``batch_size`` waiting turns or the oldest has waited ``max_age_s``. Nothing is
dropped. The extractor is the configured LLM (strict JSON, per session in batches) or the
offline extractor; an LLM failure falls back to the offline extractor for the same turns. Each
fact goes through ``writepath.commit`` (tombstones respected) with ``DERIVED_FROM`` edges to its
episodes, and the episodes are marked extracted in that same transaction.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from hippograph.graph import validate
from hippograph.graph.errors import Conflict, InvalidInput, LLMError, TurnConflict
from hippograph.graph.model import (
    ChunkPosition,
    Episode,
    NewMemory,
    Source,
    now_iso,
    parse_iso,
    to_episode,
    to_iso,
)
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.models.llm import JsonCompleter
from hippograph.graph.store.store import Row, Store, Tx
from hippograph.graph.write import ids, signals
from hippograph.graph.write.chunks import turn_pieces
from hippograph.graph.write.extract import ExtractedFact, TurnText, extract_offline
from hippograph.graph.write.extract_llm import extract_llm
from hippograph.graph.write.tools import DEFAULT_EXTRACTION, ExtractionConfig
from hippograph.graph.write.writepath import WritePolicy, commit, prepare

log = logging.getLogger(__name__)
APPEND_ATTEMPTS = 3
ROLES: tuple[str, ...] = ("user", "assistant", "system", "tool")
MAX_SESSION_ID = 200
PENDING_PAGE = 5000


@dataclass(frozen=True, kw_only=True)
class NewTurn:
    """One conversation turn to ingest. ``speaker`` or ``role`` (or both) must be given."""

    session_id: str
    turn_index: int
    text: str
    speaker: str | None = None
    role: str | None = None
    timestamp: str | None = None
    file_paths: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class IngestResult:
    stored: int  # new episodes
    duplicates: int  # turns already in the log (same session and turn index)
    extracted_turns: int
    pending_turns: int  # still buffered, waiting for more turns or for their age
    actions: dict[str, int] = field(default_factory=dict)  # decisions made for the facts


def uid(namespace: str, session_id: str, turn_index: int) -> str:
    return f"{namespace}|{session_id}|{turn_index}"


def _validate_turn(turn: NewTurn, i: int, policy: WritePolicy) -> NewTurn:
    where = f"turns[{i}]"
    if not turn.session_id.strip() or len(turn.session_id) > MAX_SESSION_ID:
        raise InvalidInput(f"{where}.sessionId", f"must be 1-{MAX_SESSION_ID} characters")
    validate.identifier(turn.session_id, f"{where}.sessionId", MAX_SESSION_ID)  # in episode ids
    if isinstance(turn.turn_index, bool) or not 0 <= turn.turn_index <= 10_000_000:
        raise InvalidInput(f"{where}.turnIndex", "must be an integer 0..10000000")
    speaker = (turn.speaker or "").strip() or None
    if speaker is None and turn.role is None:
        raise InvalidInput(f"{where}.speaker", "give a speaker or a role")
    if speaker is not None and len(speaker) > 100:
        raise InvalidInput(f"{where}.speaker", "must be at most 100 characters", limit=100)
    role = None if turn.role is None else validate.choice(turn.role, ROLES, f"{where}.role")
    text = validate.turn_text(turn.text, policy.limits, f"{where}.text")
    file_paths = validate.string_list(turn.file_paths, f"{where}.filePaths")
    if policy.content_filter is not None:
        keep = policy.content_filter
        text = keep(text, f"{where}.text")
        speaker = None if speaker is None else keep(speaker, f"{where}.speaker")
        file_paths = tuple(keep(p, f"{where}.filePaths[{j}]") for j, p in enumerate(file_paths))
    return NewTurn(
        session_id=turn.session_id.strip(),
        turn_index=turn.turn_index,
        text=text,
        speaker=speaker,
        role=role,
        timestamp=validate.timestamp(turn.timestamp, f"{where}.timestamp"),
        file_paths=file_paths,
    )


def append(
    store: Store, namespace: str, turns: Sequence[NewTurn], *, policy: WritePolicy
) -> tuple[int, int]:
    """Store turns in the log (validated and privacy-filtered first; the batch is atomic).

    Returns (new episodes, turns that were already there with the same text: a re-sent turn
    is idempotent and counted as a duplicate). A turn already in the log is left exactly as it
    was: the log is never edited. A turn whose (session, turn index) already holds a different
    text, in the log or earlier in the same batch, raises ``TurnConflict`` with both texts'
    sha256 and the batch writes nothing.
    """
    validate.namespace(namespace)
    validate.batch_size(len(turns), policy.limits, "turns")
    clean = unique_turns(_validate_turn(t, i, policy) for i, t in enumerate(turns))
    repeated = len(turns) - len(clean)
    now = now_iso()
    rows = [{"uid": uid(namespace, t.session_id, t.turn_index), "props": _props(namespace, t, now)}
            for t in clean]  # fmt: skip
    pairs = []
    for t in clean:
        here = uid(namespace, t.session_id, t.turn_index)
        if t.turn_index > 0:
            pairs.append({"prev": uid(namespace, t.session_id, t.turn_index - 1), "next": here})
        pairs.append({"prev": here, "next": uid(namespace, t.session_id, t.turn_index + 1)})
    batch = str(uuid.uuid4())
    sent = {uid(namespace, t.session_id, t.turn_index): t for t in clean}

    def work(tx: Tx) -> list[Row]:
        created = tx.run("episode/append", rows=rows, batch=batch)
        for row in created:
            turn = sent[row["uid"]]
            if not row["created"] and row["text"] != turn.text:
                # Raised inside the transaction: it rolls back, the batch writes nothing.
                raise TurnConflict(turn.session_id, turn.turn_index, _sha(row["text"]),
                                   _sha(turn.text))  # fmt: skip
        tx.run("episode/chain", pairs=pairs)
        return created

    for attempt in range(APPEND_ATTEMPTS):
        try:
            created = store.write_tx(work)
            break
        except Conflict as exc:
            # A concurrent ingest created some of these turns between our MERGE's read and its
            # write (the uid is unique): once it committed, the retry finds them as duplicates.
            if isinstance(exc, TurnConflict) or attempt + 1 == APPEND_ATTEMPTS:
                raise
    new = sum(1 for r in created if r["created"])
    return new, len(created) - new + repeated


def unique_turns(turns: Iterable[NewTurn]) -> list[NewTurn]:
    """The batch's turns with each (session, turn index) once: a repeat with the same text is
    dropped (counted as a duplicate), one with another text is a ``TurnConflict``."""
    seen: dict[tuple[str, int], NewTurn] = {}
    for turn in turns:
        key = (turn.session_id, turn.turn_index)
        first = seen.setdefault(key, turn)
        if first.text != turn.text:
            raise TurnConflict(turn.session_id, turn.turn_index, _sha(first.text),
                               _sha(turn.text))  # fmt: skip
    return list(seen.values())


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
    }
    return {k: v for k, v in props.items() if v is not None and v != []}


def ingest(
    store: Store,
    embedder: Embedder,
    namespace: str,
    turns: Sequence[NewTurn],
    *,
    policy: WritePolicy,
    config: ExtractionConfig = DEFAULT_EXTRACTION,
    flush: bool = False,
) -> IngestResult:
    """Append turns to the log, then extract whatever in the namespace's buffer is due.

    flush: extract every buffered turn now (the end of a conversation, a file import).
    """
    stored, duplicates = append(store, namespace, turns, policy=policy)
    extracted, pending, actions = extract_pending(
        store, embedder, namespace, policy=policy, config=config, flush=flush
    )
    return IngestResult(
        stored=stored,
        duplicates=duplicates,
        extracted_turns=extracted,
        pending_turns=pending,
        actions=actions,
    )


def pending(store: Store, namespace: str | None) -> list[Episode]:
    rows = store.read("episode/pending", namespace=namespace, limit=PENDING_PAGE)
    return [to_episode(r["episode"]) for r in rows]


def due(waiting: Sequence[Episode], config: ExtractionConfig, *, flush: bool) -> list[Episode]:
    """The turns of one session (in turn order) to extract now: all of them on flush, on
    ``batch_size`` waiting or on age; else up to and including the last high-signal one."""
    if not waiting:
        return []
    oldest = min(parse_iso(e.recorded_at) for e in waiting)
    aged = parse_iso(now_iso()) - oldest >= timedelta(seconds=config.max_age_s)
    if flush or aged or len(waiting) >= config.batch_size:
        return list(waiting)
    last_high = max((i for i, e in enumerate(waiting) if e.high_signal), default=-1)
    return list(waiting[: last_high + 1])


def extract_pending(
    store: Store,
    embedder: Embedder,
    namespace: str | None,
    *,
    policy: WritePolicy,
    config: ExtractionConfig = DEFAULT_EXTRACTION,
    flush: bool = False,
) -> tuple[int, int, dict[str, int]]:
    """Extract due turns of one namespace (None: all). Returns (turns extracted, turns still
    waiting, decisions by action)."""
    actions: Counter[str] = Counter()
    extracted = left = 0
    while True:
        waiting = pending(store, namespace)
        sessions: dict[tuple[str, str], list[Episode]] = {}
        for e in waiting:
            sessions.setdefault((e.namespace, e.session_id), []).append(e)
        chunks: list[tuple[str, list[Episode]]] = []
        left = 0
        for (ns, _), episodes in sessions.items():
            now_due = due(episodes, config, flush=flush)
            left += len(episodes) - len(now_due)
            for start in range(0, len(now_due), config.batch_size):
                chunks.append((ns, now_due[start : start + config.batch_size]))
        actions.update(_extract_chunks(store, embedder, chunks, policy, config))
        progressed = sum(len(chunk) for _, chunk in chunks)
        extracted += progressed
        if not progressed or len(waiting) < PENDING_PAGE:
            return extracted, left, dict(actions)


def extract_episodes(
    store: Store,
    embedder: Embedder,
    chosen: Sequence[Episode],
    *,
    policy: WritePolicy,
    config: ExtractionConfig = DEFAULT_EXTRACTION,
) -> Counter[str]:
    """Extract exactly these episodes (rebuild replays the log with it), per session in turn
    order and in chunks of ``batch_size``."""
    sessions: dict[tuple[str, str], list[Episode]] = {}
    for e in sorted(chosen, key=lambda e: (e.namespace, e.session_id, e.turn_index)):
        sessions.setdefault((e.namespace, e.session_id), []).append(e)
    chunks = [
        (ns, eps[start : start + config.batch_size])
        for (ns, _), eps in sessions.items()
        for start in range(0, len(eps), config.batch_size)
    ]
    return _extract_chunks(store, embedder, chunks, policy, config)


def _extract_chunks(
    store: Store,
    embedder: Embedder,
    chunks: Sequence[tuple[str, Sequence[Episode]]],
    policy: WritePolicy,
    config: ExtractionConfig,
) -> Counter[str]:
    """Extract every chunk, embedding all their facts in one pass (the model is faster on one
    large batch than on many small ones), then commit chunk by chunk, in order."""
    planned = [(ns, chunk, _chunk_items(chunk, policy, config)) for ns, chunk in chunks]
    contents = [item.content for _, _, (items, _, _) in planned for item in items]
    vectors = list(embedder.embed(contents)) if contents else []
    actions: Counter[str] = Counter()
    at = 0
    for ns, chunk, (items, links, extractor) in planned:
        mine = vectors[at : at + len(items)]
        at += len(items)
        actions.update(
            _commit_chunk(store, embedder, ns, chunk, items, links, extractor, mine, config)
        )
    return actions


def _chunk_items(
    chunk: Sequence[Episode], policy: WritePolicy, config: ExtractionConfig
) -> tuple[list[NewMemory], list[list[str]], str]:
    """The chunk's facts as validated, filtered memories, their episode uids, the extractor.

    A turn longer than a memory may be is not extracted: it becomes memories in pieces, each
    with its position in the turn (``chunks.turn_pieces``), so recall can find the part that
    matters and the extractor (an LLM's context) never sees a pasted file whole."""
    limit = policy.limits.max_content_bytes
    long = [e for e in chunk if len(e.text.encode("utf-8")) > limit]
    short = [e for e in chunk if e not in long]
    facts, extractor = extract_facts(short, config.client) if short else ([], "chunks")
    by_index = {e.turn_index: e for e in short}
    items, links = [], []
    for fact in facts:
        sources = [by_index[i] for i in fact.source_turns if i in by_index] or [short[0]]
        items.append(_new_memory(fact, sources))
        links.append([e.uid for e in sources])
    for e in long:
        for content, position in turn_pieces(e.text, e.speaker, limit):
            items.append(_piece(e, content, position))
            links.append([e.uid])
    return (prepare(items, policy) if items else []), links, extractor


def _commit_chunk(
    store: Store,
    embedder: Embedder,
    namespace: str,
    chunk: Sequence[Episode],
    items: list[NewMemory],
    links: list[list[str]],
    extractor: str,
    vectors: Sequence[Any],
    config: ExtractionConfig,
) -> Counter[str]:
    uids = [e.uid for e in chunk]

    def mark(tx: Tx) -> None:
        rows = tx.run(
            "episode/mark_extracted",
            namespace=namespace,
            uids=uids,
            now=now_iso(),
            extractor=extractor,
        )
        if int(rows[0]["marked"]) != len(uids):
            raise _Taken

    try:
        if not items:
            store.write_tx(mark)
            return Counter()
        outcomes = commit(
            store, embedder, namespace, items, source="extract", decider=config.decider,
            respect_tombstones=True, episodes=links, extra=mark, vectors=vectors,
            ids=ids.extracted(namespace, items, links),
        )  # fmt: skip
    except _Taken:
        # A concurrent ingest extracted these turns first: ours rolled back, nothing doubled.
        log.info(
            "extraction of %d turns of %s: already extracted by another run", len(uids), namespace
        )
        return Counter()
    return Counter(o.action for o in outcomes)


class _Taken(Exception):
    """Some turns of a chunk were claimed by another extraction; rolls its transaction back."""


def extract_facts(
    chunk: Sequence[Episode], client: JsonCompleter | None
) -> tuple[list[ExtractedFact], str]:
    """Facts of consecutive turns of one session, and the name of the extractor that made
    them (``llm``, ``offline``, or ``offline (llm failed)``)."""
    turns = [
        TurnText(
            speaker=e.speaker,
            text=e.text,
            timestamp=parse_iso(e.timestamp) if e.timestamp else None,
            session_id=e.session_id,
            turn_index=e.turn_index,
        )
        for e in chunk
    ]
    if client is not None:
        try:
            return extract_llm(client, turns), "llm"
        except LLMError as exc:
            log.warning("LLM extraction failed, using the offline extractor: %s", exc.message)
            return [f for t in turns for f in extract_offline(t)], "offline (llm failed)"
    return [f for t in turns for f in extract_offline(t)], "offline"


def _new_memory(fact: ExtractedFact, sources: Sequence[Episode]) -> NewMemory:
    tags = []
    for name in fact.tags:
        try:
            tags.append(validate.tag_name(name))
        except InvalidInput:
            continue  # a model's odd tag is not worth losing the fact over
    indices = sorted(e.turn_index for e in sources)
    messages = str(indices[0]) if len(indices) == 1 else f"{indices[0]}-{indices[-1]}"
    files = tuple(dict.fromkeys(p for e in sources for p in e.file_paths))
    when = to_iso(fact.event_time) if fact.event_time else sources[0].timestamp
    return NewMemory(
        content=fact.content,
        memory_type=fact.memory_type,
        provenance="extracted",
        confidence=fact.confidence,
        tags=tuple(dict.fromkeys(tags)),
        source=Source(session_id=sources[0].session_id, messages=messages, file_paths=files),
        occurred_at=when,
    )


def _piece(episode: Episode, content: str, position: ChunkPosition) -> NewMemory:
    """A piece of a long turn as a memory: the speaker's words as said, where they sit."""
    return NewMemory(
        content=content,
        provenance="observed",
        source=Source(session_id=episode.session_id, messages=str(episode.turn_index),
                      file_paths=episode.file_paths),
        occurred_at=episode.timestamp,
        chunk=position,
    )  # fmt: skip


def list_episodes(
    store: Store,
    namespace: str,
    *,
    session_id: str | None = None,
    first: int = 50,
    after: str | None = None,
) -> list[Episode]:
    """The log in session and turn order; ``after`` is the uid of the last episode seen."""
    validate.namespace(namespace)
    validate.optional_text(session_id, "sessionId")
    validate.optional_text(after, "after")
    if not 1 <= first <= 1000:
        raise InvalidInput("first", f"{first} is outside 1..1000", limit=1000)
    after_session, after_index = None, None
    if after:
        parts = after.rsplit("|", 1)
        if len(parts) != 2 or not parts[1].isdigit() or not parts[0].startswith(namespace + "|"):
            raise InvalidInput("after", "is not the uid of an episode of this namespace")
        after_session, after_index = parts[0][len(namespace) + 1 :], int(parts[1])
    rows = store.read(
        "episode/list",
        namespace=namespace,
        session_id=session_id,
        after_session=after_session,
        after_index=after_index,
        limit=first,
    )
    return [to_episode(r["episode"], r["memory_ids"]) for r in rows]
