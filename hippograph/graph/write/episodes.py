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

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from hippograph.graph import tracing, validate
from hippograph.graph.errors import InvalidInput, LLMError
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
from hippograph.graph.store.store import Store, Tx
from hippograph.graph.text import standing
from hippograph.graph.write import ids
from hippograph.graph.write.append import TurnRef, append, uid, unique_turns
from hippograph.graph.write.chunks import turn_pieces
from hippograph.graph.write.extract import (
    Dialogue,
    ExtractedFact,
    TurnText,
    extract_offline,
)
from hippograph.graph.write.extract_llm import extract_llm
from hippograph.graph.write.messages import ROLES, NewTurn
from hippograph.graph.write.tools import DEFAULT_EXTRACTION, ExtractionConfig
from hippograph.graph.write.writepath import WritePolicy, commit, prepare

log = logging.getLogger(__name__)
PENDING_PAGE = 5000
# Turns before a chunk that extraction reads for the conversation so far.
CONTEXT_TURNS = 12
# Re-exported: the log's callers (the API, the CLI, rebuild) name them through this module.
__all__ = [
    "ROLES", "IngestResult", "NewTurn", "TurnRef", "append", "due", "extract_episodes",
    "extract_facts", "extract_pending", "ingest", "list_episodes", "pending", "uid",
    "unique_turns",
]  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class IngestResult:
    stored: int  # new episodes
    duplicates: int  # messages already in the log (same message id, or session and turn index)
    extracted_turns: int
    pending_turns: int  # still buffered, waiting for more turns or for their age
    actions: dict[str, int] = field(default_factory=dict)  # decisions made for the facts
    turns: tuple[TurnRef, ...] = ()  # where each message sent is, in order
    erased: int = 0  # messages not stored again: they were erased


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
    with tracing.span("write.append", namespace, turns=len(turns)):
        refs = append(store, namespace, turns, policy=policy)
    with tracing.span("write.extract", namespace) as span:
        extracted, pending, actions = extract_pending(
            store, embedder, namespace, policy=policy, config=config, flush=flush
        )
        span.set_attribute("extracted_turns", extracted)
        span.set_attribute("pending_turns", pending)
    outcomes = Counter(r.outcome for r in refs)
    return IngestResult(
        stored=outcomes["stored"],
        duplicates=outcomes["duplicate"],
        extracted_turns=extracted,
        pending_turns=pending,
        actions=actions,
        turns=tuple(refs),
        erased=outcomes["erased"],
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
    names = {ns: user_name(store, ns) for ns in {ns for ns, _ in chunks}}
    planned = [
        (ns, chunk, _chunk_items(chunk, policy, config, names[ns], before(store, ns, chunk)))
        for ns, chunk in chunks
    ]
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


def user_name(store: Store, namespace: str) -> str | None:
    """The name the namespace's user gave, as its newest identity memory holds it."""
    rows = store.read(
        "episode/user_name", namespace=namespace, condition=standing.IDENTITY.condition
    )
    if not rows:
        return None
    return standing.user_name(str(rows[0]["content"]))


def before(store: Store, namespace: str, chunk: Sequence[Episode]) -> list[Episode]:
    """The ``CONTEXT_TURNS`` turns of the session said just before ``chunk`` (its first turn)."""
    if not chunk:
        return []
    first = chunk[0]
    uids = [
        uid(namespace, first.session_id, i)
        for i in range(max(0, first.turn_index - CONTEXT_TURNS), first.turn_index)
    ]
    if not uids:
        return []
    rows = store.read("episode/before", namespace=namespace, uids=uids)
    return [to_episode(r["episode"]) for r in rows]


def _chunk_items(
    chunk: Sequence[Episode],
    policy: WritePolicy,
    config: ExtractionConfig,
    name: str | None = None,
    context: Sequence[Episode] = (),
) -> tuple[list[NewMemory], list[list[str]], str]:
    """The chunk's facts as validated, filtered memories, their episode uids, the extractor.

    A turn longer than a memory may be is not extracted: it becomes memories in pieces, each
    with its position in the turn (``chunks.turn_pieces``), so recall can find the part that
    matters and the extractor (an LLM's context) never sees a pasted file whole."""
    limit = policy.limits.max_content_bytes
    # Tool turns and the tool calls and results of any turn go to the log, not to memories:
    # what a tool returned is not something the user said (a message that only calls tools
    # has no words of its own to extract).
    spoken = [e for e in chunk if e.role != "tool" and e.text.strip()]
    long = [e for e in spoken if len(e.text.encode("utf-8")) > limit]
    short = [e for e in spoken if e not in long]
    facts, extractor = (
        extract_facts(short, config.client, name, context)
        if short
        else ([], "chunks" if long else "log only")
    )
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
    chunk: Sequence[Episode],
    client: JsonCompleter | None,
    user: str | None = None,
    context: Sequence[Episode] = (),
) -> tuple[list[ExtractedFact], str]:
    """Facts of consecutive turns of one session, and the name of the extractor that made
    them (``llm``, ``offline``, or ``offline (llm failed)``); ``user``: the user's name if the
    namespace knows it; ``context``: the turns said before these (read for what they tell of
    the conversation, not extracted again)."""
    turns = [_turn_text(e) for e in chunk]
    dialogue = Dialogue(user_name=user)
    for e in context:
        extract_offline(_turn_text(e), dialogue)
    if client is not None:
        try:
            return extract_llm(client, turns), "llm"
        except LLMError as exc:
            log.warning("LLM extraction failed, using the offline extractor: %s", exc.message)
            return [f for t in turns for f in extract_offline(t, dialogue)], "offline (llm failed)"
    return [f for t in turns for f in extract_offline(t, dialogue)], "offline"


def _turn_text(e: Episode) -> TurnText:
    return TurnText(
        speaker=e.speaker,
        text=e.text,
        timestamp=parse_iso(e.timestamp) if e.timestamp else None,
        session_id=e.session_id,
        turn_index=e.turn_index,
        role=e.role,
    )


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
