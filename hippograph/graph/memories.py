"""The Memory aggregate: read, list, search, forget, delete, supersede, link, tag. New memories
come in through the one write path, ``graph.write.writepath.remember``.

Every function takes the store and a namespace; every statement filters by that namespace.
Edits after the fact (supersede, link, tag, untag, and ``recall.feedback``) append an
``EditEvent {kind, args, at}`` in their transaction (``log_edit``): ``rebuild`` replays them
(``recall.edits``) after the memories they name are back, under the same ids.
"""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from hippograph.graph import chains, entities, model, validate, vocabulary
from hippograph.graph.errors import InvalidInput, NotFound
from hippograph.graph.model import (
    DEFAULT_CONFIDENCE,
    LINK_RELATIONS,
    STATUSES,
    ChunkPosition,
    Memory,
    MemoryFilter,
    NewMemory,
    Page,
    Reinforcement,
    ScoredMemory,
    Source,
    Tag,
    body_hash,
    now_iso,
)
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.store.nearest import nearest
from hippograph.graph.store.store import Row, Store, Tx, vector
from hippograph.graph.text import fulltext, restate, standing

DEFAULT_LIMITS = validate.Limits()
# A search validAt reads at most this many nearest memories before leaving out what did not hold.
MAX_VALID_AT_READ = 1000
_LINK_FILES = {
    "RELATES_TO": "link/relates_to",
    "CONTRADICTS": "link/contradicts",
    "DERIVED_FROM": "link/derived_from",
}


def scope_key(item: NewMemory | Memory) -> str:
    """The visibility bucket a duplicate must share: scope + project + session
    (`model.scope_key`; a validated item always has one)."""
    return model.scope_key(item.scope, item.project, item.session_id) or "global"


def dedup_key(namespace: str, item: NewMemory, digest: str) -> str:
    return f"{namespace}|{scope_key(item)}|{digest}"


def node_props(
    namespace: str,
    item: NewMemory,
    digest: str,
    key: str,
    embedding: Any,
    now: str,
    context: str = "",
) -> dict[str, Any]:
    """A new memory's node properties; ``context``: what it was said after (its session's
    previous memory, `write.context`), indexed with it (`text.fulltext.indexed`)."""
    confidence = (
        item.confidence if item.confidence is not None else DEFAULT_CONFIDENCE[item.provenance]
    )
    props: dict[str, Any] = {
        "namespace": namespace,
        "content": item.content,
        "content_hash": digest,
        "dedup_key": key,
        "scope_key": key.rsplit("|", 1)[0].split("|", 1)[1],
        "memory_type": item.memory_type,
        "scope": item.scope,
        "project": item.project,
        "session_id": item.session_id,
        "provenance": item.provenance,
        "source_session": item.source.session_id,
        "source_messages": item.source.messages,
        "source_files": list(item.source.file_paths),
        "source_snippet": item.source.snippet,
        "created_at": item.occurred_at or now,
        "recorded_at": now,
        "updated_at": now,
        "last_accessed": None,
        "access_count": 0,
        "strength": 1,
        "reinforcements": [],
        "confidence": confidence,
        "initial_confidence": confidence,
        "trust_score": item.trust_score,
        "status": "active",
        "trigger_patterns": list(item.trigger_patterns),
        "steps": list(item.steps),
        "prerequisites": list(item.prerequisites),
        "warnings": list(item.warnings),
        "embedding": vector(embedding),
        "ft_terms": fulltext.indexed(namespace, item.content, context),
        **standing.props(namespace, item.content),
    }
    if item.chunk is not None:
        props.update({f"chunk_{k}": v for k, v in asdict(item.chunk).items()})
    # Empty lists and nulls are left off the node: Neo4j stores no nulls and some tools choke
    # on empty arrays; readers treat a missing property as empty.
    return {k: v for k, v in props.items() if v is not None and v != []}


def get(store: Store, namespace: str, memory_id: str) -> Memory:
    validate.namespace(namespace)
    memory_id = validate.memory_id(memory_id)
    found = get_many(store, namespace, [memory_id])
    if not found:
        raise NotFound("memory", memory_id)
    return found[0]


def get_seen(
    store: Store,
    namespace: str,
    memory_id: str,
    *,
    project: str | None = None,
    session_id: str | None = None,
) -> Memory:
    """``get`` for a caller of ``project`` and ``session_id``: a memory of a scope it does not
    see (``validate.visible``, as recall) is not found, as one of another namespace."""
    visible = validate.visible(project, session_id)
    found = get(store, namespace, memory_id)
    if model.scope_key(found.scope, found.project, found.session_id) not in visible:
        raise NotFound("memory", found.id)
    return found


def get_many(store: Store, namespace: str, ids: Sequence[str]) -> list[Memory]:
    """Memories by id, in the order asked; ids missing from the namespace are left out."""
    rows = store.read("memory/get_many", namespace=namespace, ids=list(ids))
    by_id = {r["memory"]["id"]: to_memory(r) for r in rows}
    return [by_id[i] for i in ids if i in by_id]


def to_memory(row: Row) -> Memory:
    p = row["memory"]
    crumbs = tuple(Reinforcement(**json.loads(c)) for c in p.get("reinforcements") or [])
    return Memory(
        id=p["id"],
        namespace=p["namespace"],
        content=p["content"],
        content_hash=p["content_hash"],
        memory_type=p["memory_type"],
        scope=p["scope"],
        project=p.get("project"),
        session_id=p.get("session_id"),
        provenance=p["provenance"],
        source=Source(
            session_id=p.get("source_session"),
            messages=p.get("source_messages"),
            file_paths=tuple(p.get("source_files") or ()),
            snippet=p.get("source_snippet"),
        ),
        created_at=p["created_at"],
        updated_at=p["updated_at"],
        last_accessed=p.get("last_accessed"),
        access_count=int(p.get("access_count") or 0),
        strength=int(p.get("strength") or 1),
        reinforcements=crumbs,
        confidence=float(p.get("confidence", 0.0)),
        trust_score=float(p.get("trust_score", 1.0)),
        status=p["status"],
        superseded_by=p.get("superseded_by"),
        trigger_patterns=tuple(p.get("trigger_patterns") or ()),
        steps=tuple(p.get("steps") or ()),
        prerequisites=tuple(p.get("prerequisites") or ()),
        warnings=tuple(p.get("warnings") or ()),
        tags=tuple(sorted(row.get("tags") or ())),
        importance=p.get("importance"),
        recorded_at=p.get("recorded_at"),
        valid_until=p.get("valid_until"),
        superseded_at=p.get("superseded_at"),
        archived_at=p.get("archived_at"),
        chunk=_chunk(p),
    )


def _chunk(p: Row) -> ChunkPosition | None:
    if p.get("chunk_index") is None:
        return None
    return ChunkPosition(index=int(p["chunk_index"]), count=int(p["chunk_count"]),
                         start=int(p["chunk_start"]), end=int(p["chunk_end"]))  # fmt: skip


def list_memories(
    store: Store,
    namespace: str,
    flt: MemoryFilter,
    *,
    first: int = 20,
    after: str | None = None,
    as_of: str | None = None,
    project: str | None = None,
    session_id: str | None = None,
) -> Page:
    """One page of memories, newest first; ``after`` is the previous page's opaque cursor.
    ``as_of`` (ISO time): the memories current then (``Memory.current_at``), whatever their
    status now; the status filter is not applied. Scoped as recall is (``validate.visible``):
    global memories, those of ``project`` and those of ``session_id``; ``flt`` narrows that."""
    validate.namespace(namespace)
    visible = validate.visible(project, session_id)
    as_of = validate.as_of(as_of)
    if not 1 <= first <= 500:
        raise InvalidInput("first", f"{first} is outside 1..500", limit=500)
    after_created, after_id = _decode_cursor(after) if after else (None, None)
    tag_uid = f"{namespace}|{validate.tag_name(flt.tag)}" if flt.tag else None
    rows = store.read(
        "memory/list",
        namespace=namespace,
        status=None if as_of else validate.status(flt.status),
        as_of=as_of,
        memory_type=flt.memory_type,
        scope=flt.scope,
        project=flt.project,
        session_id=flt.session_id,
        text=flt.text.lower() if flt.text else None,
        tag_uid=tag_uid,
        after_created=after_created,
        after_id=after_id,
        limit=first + 1,
        scopes=visible,
    )
    items = sorted((to_memory(r) for r in rows), key=lambda m: (m.created_at, m.id), reverse=True)
    more = len(items) > first
    items = items[:first]
    cursor = _encode_cursor(items[-1]) if more and items else None
    return Page(items=tuple(items), next_cursor=cursor)


def _encode_cursor(memory: Memory) -> str:
    raw = json.dumps([memory.created_at, memory.id]).encode()
    return base64.urlsafe_b64encode(raw).decode()


def _decode_cursor(cursor: str) -> tuple[str, str]:
    try:
        created, memory_id = json.loads(base64.urlsafe_b64decode(cursor.encode()))
        return str(created), validate.memory_id(str(memory_id))
    except (ValueError, TypeError, InvalidInput):
        raise InvalidInput("after", "is not a cursor returned by a previous page") from None


def vector_seeds(
    store: Store,
    namespace: str,
    embedding: Sequence[float],
    k: int,
    *,
    statuses: Sequence[str] = ("active",),
    as_of: str | None = None,
    scopes: Sequence[str] | None = None,
) -> list[tuple[str, float]]:
    """Top-k (id, cosine) through the vector index, namespace-filtered; with ``as_of`` (ISO
    time), of the memories current then (``Memory.current_at``) among ``statuses``; with
    ``scopes``, of the memories a caller with those scope keys sees (``model.scopes``).

    The index is shared by all namespaces, so it is asked for ``k × oversample`` candidates; if
    filtering leaves fewer than k while the index may hold more, an exact scan of the namespace
    (bounded by the namespace's size) gives the answer instead.
    """

    def more(rows: list[Row]) -> bool:
        total = store.read("memory/count", namespace=namespace, statuses=list(statuses))
        return bool(total[0]["count"] > len(rows))

    rows = nearest(
        store,
        "memory/vector_search",
        "memory/vector_search_exact",
        k,
        floor=50,
        more=more,
        namespace=namespace,
        statuses=list(statuses),
        embedding=vector(embedding),
        as_of=as_of,
        scopes=None if scopes is None else list(scopes),
    )
    return [(r["id"], float(r["cosine"])) for r in rows]


def search(
    store: Store,
    embedder: Embedder,
    namespace: str,
    query: str,
    k: int,
    *,
    limits: validate.Limits = DEFAULT_LIMITS,
    as_of: str | None = None,
    project: str | None = None,
    session_id: str | None = None,
    valid_at: str | None = None,
) -> list[ScoredMemory]:
    """Plain vector top-k of active memories; with ``as_of`` (ISO time), of the memories
    current then (``Memory.current_at``), whatever their status now; with ``valid_at`` (event
    time), of those whose fact held then, superseded ones included. Scoped as recall is
    (``model.scopes``): global memories, those of ``project`` and those of ``session_id``."""
    validate.namespace(namespace)
    query = validate.content(query, limits, "query")
    k = validate.top_k(k, limits)
    as_of = validate.as_of(as_of)
    visible = validate.visible(project, session_id)
    valid_at = validate.as_of(valid_at, "validAt")
    embedding = embedder.embed([query])[0]
    if valid_at is not None and as_of is None:
        # What did not hold then is left out after the nearest are read: read more of them.
        hidden = {
            r["id"]
            for r in store.read("recall/valid_hidden", namespace=namespace, valid_at=valid_at)
        }
        found = vector_seeds(
            store, namespace, embedding, min(k + len(hidden), MAX_VALID_AT_READ),
            statuses=("active", "superseded"),
            scopes=visible,
        )  # fmt: skip
        seeds = [(i, s) for i, s in found if i not in hidden][:k]
    elif as_of is None:
        seeds = vector_seeds(store, namespace, embedding, k, scopes=visible)
    else:
        seeds = vector_seeds(
            store, namespace, embedding, k, statuses=STATUSES, as_of=as_of, scopes=visible
        )
    by_id = {m.id: m for m in get_many(store, namespace, [i for i, _ in seeds])}
    return [ScoredMemory(memory=by_id[i], score=s) for i, s in seeds if i in by_id]


def forget(
    store: Store,
    namespace: str,
    memory_id: str,
    *,
    reason: str = "forgotten",
    hard: bool = False,
    embedder: Embedder | None = None,
) -> str:
    """Archive a memory (or, with ``hard``, delete the node and its edges); either way a
    tombstone records its content hash, the hash without a "Speaker: " prefix and its
    embedding (never its text), and with ``embedder`` what recognises a restatement of it in
    other words (``text/restate.py``: its neutral form's embedding, its numbers' and
    relations' salted hashes), so no later ingest, extraction or rebuild brings it back, nor a
    restatement of it (``write/neighbours.py: tombstoned``). An explicit ``remember`` does not
    check tombstones: the user asked again. A hard forget also re-indexes the memories of its
    source session by their own words (they may hold its words as context: ``write/context.py``),
    and removes from the namespace's vocabulary its words no memory holds any longer
    (``graph/vocabulary.py``).
    """
    validate.namespace(namespace)
    memory_id = validate.memory_id(memory_id)
    name = "memory/delete" if hard else "memory/archive"
    found = store.read("memory/get_many", namespace=namespace, ids=[memory_id])
    if not found:
        raise NotFound("memory", memory_id)
    session = found[0]["memory"].get("source_session")
    content = str(found[0]["memory"]["content"] or "")
    neutral = None if embedder is None else vector(embedder.embed([restate.neutral(content)])[0])

    def work(tx: Tx) -> list[Row]:
        mentioned = entities.forget_memories(tx, namespace, [memory_id]) if hard else []
        rows = tx.run(
            name,
            namespace=namespace,
            id=memory_id,
            now=now_iso(),
            reason=reason,
            tombstone_id=str(uuid.uuid4()),
            body_hash=body_hash(found[0]["memory"]["content"]),
            neutral_embedding=neutral,
            number_keys=restate.number_keys(namespace, content),
            relation_keys=restate.relation_keys(namespace, content),
        )
        if hard and session:
            # The memory said after this one was indexed with its words too (its context):
            # the session's memories are indexed by their own words again, in the same
            # transaction, so a hard-forgotten text finds nothing.
            texts = tx.run("memory/session_texts", namespace=namespace, session=session)
            terms = [
                {"id": r["id"], "ft_terms": fulltext.indexed(namespace, str(r["content"] or ""))}
                for r in texts
            ]
            if terms:
                tx.run("memory/set_terms", rows=terms)
        entities.prune(tx, namespace, mentioned)
        return rows

    rows = store.write_tx(work)
    if not rows or (hard and not rows[0].get("deleted")):
        raise NotFound("memory", memory_id)
    if hard:
        # Its words that no memory holds any longer leave the vocabulary (after the commit: the
        # full-text index tells what is still held).
        vocabulary.prune(store, namespace, [str(found[0]["memory"]["content"] or "")])
    return memory_id


def log_edit(tx: Tx, namespace: str, kind: str, args: dict[str, Any]) -> None:
    """Append the edit ``kind`` with its arguments (the values as written: validated and, by
    the API, privacy-filtered) to the namespace's log, in the edit's transaction."""
    event = {"id": str(uuid.uuid4()), "namespace": namespace, "at": now_iso(), "kind": kind,
             "args": json.dumps(args, sort_keys=True)}  # fmt: skip
    tx.run("edit/record", event=event)


def supersede(
    store: Store, namespace: str, old_id: str, new_id: str, *, reason: str = "", log: bool = True
) -> None:
    """Mark ``old_id`` as superseded by ``new_id`` (a ``SUPERSEDES`` edge; ``old_id`` stays as
    history). Supersession is a set of chains (``graph/chains.py``): if ``old_id`` is already
    superseded, ``new_id`` supersedes the head of its chain instead (its current successor),
    so ``X <- Y`` then ``supersede(X, Z)`` gives ``X <- Y <- Z``; if ``new_id`` already
    supersedes ``old_id`` (directly or not) nothing changes; if ``old_id``'s chain already
    supersedes ``new_id``, ``SupersedeCycle`` names both ids and nothing is written.

    namespace: the namespace holding both memories.
    old_id, new_id: the memory replaced and the one replacing it (``NotFound`` if absent).
    reason: kept on the edge.
    log: append the edit to the log (False: ``rebuild`` replaying it).
    """
    validate.namespace(namespace)
    old_id = validate.memory_id(old_id, "oldId")
    new_id = validate.memory_id(new_id, "newId")
    if old_id == new_id:
        raise InvalidInput("newId", "a memory cannot supersede itself")

    def work(tx: Tx) -> None:
        _require(tx, namespace, {"oldId": old_id, "newId": new_id})
        rows = chains.resolve(
            tx, namespace, [{"old_id": old_id, "new_id": new_id, "reason": reason}]
        )
        if rows:
            tx.run("memory/supersede", namespace=namespace, now=now_iso(), rows=rows)
        if log:
            log_edit(tx, namespace, "supersede", {"old_id": old_id, "new_id": new_id,
                                                  "reason": reason})  # fmt: skip

    store.write_tx(work)


def link(
    store: Store,
    namespace: str,
    from_id: str,
    to_id: str,
    relation: str = "RELATES_TO",
    *,
    weight: float = 1.0,
    confidence: float = 1.0,
    kind: str = "explicit",
    log: bool = True,
) -> tuple[float, float]:
    """Create (or reinforce) an edge between two memories of the namespace; ``log`` as in
    ``supersede``."""
    validate.namespace(namespace)
    from_id = validate.memory_id(from_id, "from")
    to_id = validate.memory_id(to_id, "to")
    relation = validate.choice(relation, LINK_RELATIONS, "relation")
    weight = validate.unit_interval(weight, "weight")
    confidence = validate.unit_interval(confidence, "confidence")
    if from_id == to_id:
        raise InvalidInput("to", "a memory cannot be linked to itself")

    def work(tx: Tx) -> tuple[float, float]:
        _require(tx, namespace, {"from": from_id, "to": to_id})
        row = tx.run(
            _LINK_FILES[relation],
            namespace=namespace,
            from_id=from_id,
            to_id=to_id,
            weight=weight,
            confidence=confidence,
            delta=0.1,
            kind=kind,
            now=now_iso(),
        )[0]
        if log:
            args = {"from_id": from_id, "to_id": to_id, "relation": relation, "weight": weight,
                    "confidence": confidence, "kind": kind}  # fmt: skip
            log_edit(tx, namespace, "link", args)
        return float(row["weight"]), float(row["confidence"])

    return store.write_tx(work)


def _require(tx: Tx, namespace: str, ids: dict[str, str]) -> None:
    found = {
        r["id"] for r in tx.run("memory/existing_ids", namespace=namespace, ids=list(ids.values()))
    }
    for field, memory_id in ids.items():
        if memory_id not in found:
            raise NotFound("memory", memory_id, field=field)


def _few_tags(names: Sequence[str]) -> None:
    if len(names) > validate.MAX_TAGS:
        raise InvalidInput(
            "tags",
            f"{len(names)} tags; at most {validate.MAX_TAGS} a call",
            limit=validate.MAX_TAGS,
        )


def _tag_names(names: Sequence[str]) -> list[str]:
    """The tags of a tag or untag call, normalized; a secret in one, as sent (lower-casing
    hides a key's shape), is refused (``validate.secret_free``)."""
    _few_tags(names)
    clean = [validate.tag_name(n, f"tags[{i}]") for i, n in enumerate(names)]
    for i, name in enumerate(names):
        validate.secret_free(name, f"tags[{i}]")
    return clean


def tag(
    store: Store, namespace: str, memory_id: str, names: Sequence[str], *, log: bool = True
) -> Memory:
    validate.namespace(namespace)
    memory_id = validate.memory_id(memory_id)
    clean = _tag_names(names)

    def work(tx: Tx) -> None:
        _require(tx, namespace, {"id": memory_id})
        tx.run(
            "tag/attach",
            namespace=namespace,
            now=now_iso(),
            pairs=[{"memory_id": memory_id, "tag": t} for t in clean],
        )
        if log:
            log_edit(tx, namespace, "tag", {"memory_id": memory_id, "names": clean})

    store.write_tx(work)
    return get(store, namespace, memory_id)


def untag(
    store: Store, namespace: str, memory_id: str, names: Sequence[str], *, log: bool = True
) -> Memory:
    validate.namespace(namespace)
    memory_id = validate.memory_id(memory_id)
    clean = _tag_names(names)  # logged in the edit event: gated like tag's

    def work(tx: Tx) -> None:
        _require(tx, namespace, {"id": memory_id})
        for t in clean:
            tx.run("tag/detach", namespace=namespace, id=memory_id, uid=f"{namespace}|{t}")
        if log:
            log_edit(tx, namespace, "untag", {"memory_id": memory_id, "names": clean})

    store.write_tx(work)
    return get(store, namespace, memory_id)


def list_tags(store: Store, namespace: str, first: int = 100) -> list[Tag]:
    validate.namespace(namespace)
    if not 1 <= first <= 1000:
        raise InvalidInput("first", f"{first} is outside 1..1000", limit=1000)
    rows = store.read("tag/list", namespace=namespace, limit=first)
    return [
        Tag(
            name=r["name"], namespace=namespace, count=int(r["count"]), description=r["description"]
        )
        for r in rows
    ]
