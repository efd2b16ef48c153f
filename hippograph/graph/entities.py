"""Entities: the people, places and things memories mention, one node per real thing in a
namespace, and the typed relationships between them.

``(:Memory)-[:MENTIONS {role}]->(:Entity)`` is written with each memory (`write.mentions`);
``(:Entity)-[:RELATED {type, since, until, source}]->(:Entity)`` holds what statements or
callers say of two entities, bi-temporal like memories (an ended one gets ``until``, never
deleted). One relationship type with a ``type`` property, not one per kind: a caller's types
are open-ended and validated as names, never spliced into a statement, and Browser still
shows the type on every edge through its caption (docs/neo4j-browser.md).

Resolution is by exact and normalised name and by alias; a merge writes ``SAME_AS`` and moves
nothing, so ``split`` undoes it exactly (a wrong merge is worse than a missed one: nothing is
merged automatically by a guess). Reads follow one ``SAME_AS`` step.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hippograph.graph import validate
from hippograph.graph.errors import InvalidInput, NotFound
from hippograph.graph.model import now_iso
from hippograph.graph.store.store import Row, Store, Tx
from hippograph.graph.text import entities as text

MAX_NAME_CHARS = 200
MAX_LIST = 500
MAX_DESCRIPTION_CHARS = 2000
MAX_TYPES = 32  # relationship types one read may name
_UIDS = uuid.UUID("8d0f6a52-6c1e-4d37-9a0f-3c2b8e1f4a10")  # the uuid5 namespace of entity uids


@dataclass(frozen=True, kw_only=True)
class Entity:
    uid: str
    namespace: str
    name: str
    canonical: str
    kind: str
    aliases: tuple[str, ...]
    description: str | None
    first_seen: str | None
    last_seen: str | None
    mentions: int  # memories that mention it (not those of entities merged into it)
    merged_into: str | None = None  # the entity it was merged into (SAME_AS)
    importance: float | None = None  # 0..1 within the namespace (the pagerank job); None before


@dataclass(frozen=True, kw_only=True)
class Relationship:
    """One RELATED edge seen from an entity: ``outgoing`` when it reads "entity TYPE other"."""

    type: str
    outgoing: bool
    other_uid: str
    other_name: str
    other_kind: str
    since: str | None
    until: str | None  # when it stopped holding; None while it holds
    source: str | None  # the memory it was read from, or "caller"
    recorded_at: str | None


@dataclass(frozen=True, kw_only=True)
class MergedEntity:
    uid: str
    name: str
    at: str | None
    reason: str | None


def uid_for(namespace: str, canonical: str) -> str:
    """The uid of the entity first named ``canonical`` in ``namespace``: derived, so two writers
    naming a new thing at once meet on one node."""
    return str(uuid.uuid5(_UIDS, f"{namespace}|{canonical}"))


def name(value: str, field: str = "name") -> str:
    """A name a caller gives: one line, at most MAX_NAME_CHARS, no secret."""
    return validate.identifier(value, field, MAX_NAME_CHARS).strip()


def type_name(value: str, field: str = "type") -> str:
    """A relationship type: letters, digits and _ (``works_at`` is read as ``WORKS_AT``), no
    secret (scanned as sent: upper-casing hides a key's shape)."""
    upper = validate.identifier(value, field, 40).strip().upper()
    if not text.TYPE_NAME.fullmatch(upper):
        raise InvalidInput(field, "must be 1-40 of A-Z, 0-9 and _, starting with a letter",
                           limit=40)  # fmt: skip
    return upper


def type_names(types: Sequence[str]) -> list[str]:
    """``types`` as relationship types (``type_name``), at most ``MAX_TYPES`` of them."""
    if len(types) > MAX_TYPES:
        raise InvalidInput(
            "types", f"holds {len(types)} types; the limit is {MAX_TYPES}", limit=MAX_TYPES
        )
    return [type_name(t, f"types[{i}]") for i, t in enumerate(types)]


def kind_name(value: str | None, field: str = "kind") -> str | None:
    """An entity kind: one of ``text.entities.KINDS`` or a caller's (lowercase, 1-30 of a-z,
    0-9, _ and -)."""
    if value is None:
        return None
    lower = validate.identifier(value, field, 30).strip().lower()
    if not text.KIND_NAME.fullmatch(lower):
        raise InvalidInput(field, "must be 1-30 of a-z, 0-9, _ and -, starting with a letter",
                           limit=30)  # fmt: skip
    return lower


def resolve(store: Store | Tx, namespace: str, names: Iterable[str]) -> dict[str, str]:
    """Canonical name -> uid of the live entity it names: an entity of that name first, else
    the one entity holding it as an alias (two holders: ambiguous, unresolved); an entity
    merged into another resolves to that one."""
    wanted = sorted(set(names))
    if not wanted:
        return {}
    rows = _run(store, "entity/resolve", namespace=namespace, names=wanted)
    found: dict[str, str] = {}
    by_alias: dict[str, set[str]] = {}
    for r in rows:
        live = str(r["kept"] or r["uid"])
        if r["canonical"] in wanted:
            found[str(r["canonical"])] = live
        for alias in r["aliases"] or []:
            by_alias.setdefault(str(alias), set()).add(live)
    for alias, holders in by_alias.items():
        if alias in wanted and alias not in found and len(holders) == 1:
            found[alias] = next(iter(holders))
    return found


def _run(store: Store | Tx, statement: str, **params: Any) -> list[Row]:
    if isinstance(store, Store):
        return store.read(statement, **params)
    return store.run(statement, **params)


def find(store: Store, namespace: str, ident: str, field: str = "entity") -> str:
    """The uid of the entity ``ident`` names: a uid, a name or an alias; NotFound otherwise."""
    ident = name(ident, field)
    try:
        uid = str(uuid.UUID(ident))
    except ValueError:
        uid = ""
    if uid and store.read("entity/get", namespace=namespace, uid=uid):
        return uid
    found = resolve(store, namespace, [text.canonical(ident)])
    if not found:
        raise NotFound("entity", ident, field=field)
    return next(iter(found.values()))


def get(store: Store, namespace: str, uid: str) -> tuple[Entity, tuple[MergedEntity, ...]]:
    """The entity and those merged into it."""
    rows = store.read("entity/get", namespace=namespace, uid=uid)
    if not rows:
        raise NotFound("entity", uid)
    merged = tuple(
        MergedEntity(uid=m["uid"], name=m["name"], at=m.get("at"), reason=m.get("reason"))
        for m in rows[0]["merged"] or []
        if m
    )
    return to_entity(rows[0]["entity"], rows[0]["kept"]), merged


def to_entity(p: Row, kept: str | None = None) -> Entity:
    return Entity(
        uid=p["uid"], namespace=p["namespace"], name=p["name"], canonical=p["canonical"],
        kind=p.get("kind") or "object", aliases=tuple(p.get("aliases") or ()),
        description=p.get("description"), first_seen=p.get("first_seen"),
        last_seen=p.get("last_seen"), mentions=int(p.get("mentions") or 0), merged_into=kept,
        importance=p.get("importance"),
    )  # fmt: skip


def relationships(
    store: Store,
    namespace: str,
    uid: str,
    *,
    types: Sequence[str] = (),
    current: bool = False,
    scopes: Sequence[str] | None = None,
) -> list[Relationship]:
    """The entity's relationships, oldest first; ``types``: only those; ``current``: only those
    that still hold; ``scopes`` (``validate.visible``; None: all): only those stated by a
    caller or by a memory of those scopes."""
    wanted = type_names(types)
    rows = store.read(
        "entity/relationships", namespace=namespace, uid=uid, types=wanted, current=current,
        scopes=None if scopes is None else list(scopes),
    )  # fmt: skip
    return [
        Relationship(
            type=r["type"],
            outgoing=bool(r["outgoing"]),
            other_uid=r["uid"],
            other_name=r["name"],
            other_kind=r["kind"] or "object",
            since=r["since"],
            until=r["until"],
            source=r["source"],
            recorded_at=r["recorded_at"],
        )  # fmt: skip
        for r in rows
    ]


def search(
    store: Store,
    namespace: str,
    *,
    kind: str | None = None,
    query: str = "",
    limit: int = 50,
    project: str | None = None,
    session_id: str | None = None,
) -> list[Entity]:
    """Entities not merged into another, the most mentioned first: of ``kind``, with ``query``
    in their name or an alias (case-insensitive); scoped as recall is (``validate.visible``):
    one that memories mention only if one of them is of a scope the caller sees."""
    validate.namespace(namespace)
    kind = kind_name(kind)
    query = text.canonical(validate.optional_text(query, "query", MAX_NAME_CHARS) or "")
    if not 1 <= limit <= MAX_LIST:
        raise InvalidInput("first", f"must be within 1..{MAX_LIST}", limit=MAX_LIST)
    visible = validate.visible(project, session_id)
    rows = store.read(
        "entity/list", namespace=namespace, kind=kind, query=query, limit=limit, scopes=visible
    )
    return [to_entity(r["entity"]) for r in rows]


def relate(
    store: Store,
    namespace: str,
    source: str,
    type_: str,
    target: str,
    *,
    kind: str | None = None,
    since: str | None = None,
    ended: bool = False,
) -> list[Relationship]:
    """``source`` TYPE ``target``, as a caller says it (``source: "caller"``), each named by
    its uid or a name; an entity not known by that name is created (of ``kind``, default
    object). ``ended``: the open relationship of that type between them ends at ``since``
    (default now). Returns the source's relationships of that type."""
    validate.namespace(namespace)
    type_ = type_name(type_)
    kind = kind_name(kind) or "object"
    since = validate.timestamp(since, "since") or now_iso()
    names = [name(source, "from"), name(target, "to")]
    by_uid = [_existing_uid(store, namespace, n) for n in names]
    named = [(n, f) for n, f, u in zip(names, ("from", "to"), by_uid, strict=True) if u is None]
    made = iter(
        _ensure(store, namespace, [n for n, _ in named], kind, fields=[f for _, f in named])
    )
    uids = [u if u is not None else next(made) for u in by_uid]
    row = {
        "from_uid": uids[0], "to_uid": uids[1], "type": type_, "since": since,
        "source": "caller", "ended": ended, "single": type_ in text.SINGLE_VALUED,
    }  # fmt: skip
    store.write_tx(lambda tx: tx.run("entity/relate", namespace=namespace, now=now_iso(),
                                     rows=[row]))  # fmt: skip
    return relationships(store, namespace, uids[0], types=[type_])


def define(
    store: Store,
    namespace: str,
    entity: str,
    *,
    kind: str | None = None,
    description: str | None = None,
) -> Entity:
    """The entity ``entity`` names, created when not known (of ``kind``, default object), with
    the caller's ``kind`` and ``description`` when given: an integrator declaring the people and
    things it knows, before any memory mentions them."""
    validate.namespace(namespace)
    kind = kind_name(kind)
    description = validate.optional_text(description, "description", MAX_DESCRIPTION_CHARS)
    if description is not None:
        description = validate.secret_free(description, "description")
    uid = _ensure(store, namespace, [name(entity, "name")], kind or "object", fields=("name",))[0]
    store.write_tx(lambda tx: tx.run("entity/describe", namespace=namespace, uid=uid, kind=kind,
                                     description=description))  # fmt: skip
    return get(store, namespace, uid)[0]


def _existing_uid(store: Store, namespace: str, ident: str) -> str | None:
    """``ident`` when it is the uid of an entity of the namespace (the one it was merged into,
    if it was), else None: a name."""
    try:
        uid = str(uuid.UUID(ident))
    except ValueError:
        return None
    rows = store.read("entity/get", namespace=namespace, uid=uid)
    return str(rows[0]["kept"] or uid) if rows else None


def _ensure(
    store: Store,
    namespace: str,
    names: list[str],
    kind: str,
    *,
    fields: Sequence[str] = ("from", "to"),
) -> list[str]:
    """The uids of the entities ``names`` name, creating those not known yet."""
    canon = [text.canonical(n) for n in names]
    for field, c in zip(fields, canon, strict=True):
        if not c:
            raise InvalidInput(field, "must hold a letter or digit")
    known = resolve(store, namespace, canon)
    missing = [
        {"uid": uid_for(namespace, c), "name": n, "canonical": c, "kind": kind}
        for n, c in zip(names, canon, strict=True)
        if c not in known
    ]
    if missing:
        store.write_tx(lambda tx: tx.run("entity/ensure", namespace=namespace, now=now_iso(),
                                         rows=missing))  # fmt: skip
    return [known.get(c) or uid_for(namespace, c) for c in canon]


def merge(store: Store, namespace: str, source: str, into: str, reason: str = "") -> str:
    """Record that ``source`` is the same as ``into`` (``SAME_AS``; nothing moves, ``split``
    undoes it). Returns the uid kept."""
    validate.namespace(namespace)
    reason = validate.optional_text(reason, "reason", 500) or ""
    from_uid = find(store, namespace, source, "from")
    into_uid = find(store, namespace, into, "into")
    if from_uid == into_uid:
        raise InvalidInput("into", "is the entity being merged (or already holds it)")
    merged = get(store, namespace, from_uid)[1]
    if merged:
        raise InvalidInput(
            "from", f"has {len(merged)} entities merged into it: merge each into the target"
        )
    store.write_tx(lambda tx: tx.run("entity/merge", namespace=namespace, from_uid=from_uid,
                                     into_uid=into_uid, now=now_iso(), reason=reason))  # fmt: skip
    return into_uid


def split(store: Store, namespace: str, ident: str) -> str:
    """Undo the merge of the entity ``ident`` (its uid: a name resolves to the merged one)."""
    validate.namespace(namespace)
    uid = name(ident, "entity")
    rows = store.read("entity/get", namespace=namespace, uid=uid)
    if not rows:
        raise NotFound("entity", uid, field="entity")
    if rows[0]["kept"] is None:
        raise InvalidInput("entity", "is not merged into another entity")
    store.write_tx(lambda tx: tx.run("entity/split", namespace=namespace, uid=uid))
    return uid


def forget_memories(tx: Tx, namespace: str, ids: Sequence[str]) -> list[str]:
    """Before memories are deleted: the entities they mention (``prune`` them after) and the
    relationships read from them, dropped."""
    if not ids:
        return []
    rows = tx.run("entity/of_memories", namespace=namespace, ids=list(ids))
    tx.run("entity/drop_sourced", namespace=namespace, ids=list(ids))
    return [str(u) for u in rows[0]["uids"]] if rows else []


def prune(tx: Tx, namespace: str, uids: Sequence[str], *, keep_stated: bool = True) -> int:
    """Entities no memory mentions any longer, deleted; the others' counts read again.
    ``keep_stated``: not those a caller named (erasure passes False: what it erased may be
    all that was known of them, and erased means erased)."""
    if not uids:
        return 0
    rows = tx.run(
        "entity/prune", namespace=namespace, uids=sorted(set(uids)), keep_stated=keep_stated
    )
    return int(rows[0]["deleted"]) if rows else 0
