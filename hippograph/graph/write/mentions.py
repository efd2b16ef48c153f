"""Entities found when memories are written: each new memory's mentions (`text.entities`:
names, relation words, the speaker) resolved to the namespace's entities (`graph.entities`:
name, then a unique alias) and written in the batch's transaction with the relationships the
memory states. A weak mention (a lone word opening a sentence) and an alias alone ("my
sister") count only where they resolve; a memory whose content an UPDATE replaced has its
mentions read again."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hippograph.graph import entities
from hippograph.graph.model import NewMemory
from hippograph.graph.store.store import Store, Tx
from hippograph.graph.text import entities as text
from hippograph.graph.write.formation import speaker_of


@dataclass
class MentionPlan:
    """What a batch writes of entities: MENTIONS rows, RELATED rows, and the memories whose
    old mentions go first."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    relations: list[dict[str, Any]] = field(default_factory=list)
    refresh: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Written:
    """A memory of the batch as mentions read it: its id, what it holds, its event time."""

    memory_id: str
    item: NewMemory
    at: str
    replaced: bool = False  # an UPDATE: the memory held other content before


def plan(store: Store, namespace: str, written: Sequence[Written]) -> MentionPlan:
    """The mentions and relationships of ``written`` (see the module)."""
    result = MentionPlan(refresh=[w.memory_id for w in written if w.replaced])
    found = [text.find(w.item.content, speaker_of(w.item)) for w in written]
    wanted = {m.aliases[0] if m.alias_only else m.canonical for f in found for m in f.mentions}
    known = entities.resolve(store, namespace, wanted)
    # Names the batch says outright: a weak mention anywhere in it may mean them.
    named = {m.canonical for f in found for m in f.mentions if not m.weak and not m.alias_only}
    for w, f in zip(written, found, strict=True):
        uids: dict[str, str] = {}
        for m in f.mentions:
            uid = _uid(namespace, m, known, named)
            if uid is None or uid in uids.values():
                continue
            uids[m.canonical] = uid
            result.rows.append({
                "uid": uid, "name": m.name, "canonical": m.canonical, "kind": m.kind,
                "cued": m.cued, "aliases": list(m.aliases), "memory_id": w.memory_id,
                "role": m.role, "at": w.at,
            })  # fmt: skip
        for r in f.relations:
            source, target = uids.get(text.canonical(r.source)), uids.get(text.canonical(r.target))
            if source and target and source != target:
                result.relations.append({
                    "from_uid": source, "to_uid": target, "type": r.type, "since": w.at,
                    "source": w.memory_id, "ended": r.ended,
                    "single": r.type in text.SINGLE_VALUED,
                })  # fmt: skip
    return result


def _uid(
    namespace: str, mention: text.Mention, known: dict[str, str], named: set[str]
) -> str | None:
    if mention.alias_only:
        return known.get(mention.aliases[0])
    canonical = mention.canonical
    if not canonical:
        return None
    if canonical in known:
        return known[canonical]
    if mention.weak and canonical not in named:
        return None
    return entities.uid_for(namespace, canonical)


def _by_entity(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The MENTIONS rows grouped by entity: one MERGE and one count update each."""
    grouped: dict[str, dict[str, Any]] = {}
    for r in rows:
        ent = grouped.setdefault(r["uid"], {
            "uid": r["uid"], "name": r["name"], "canonical": r["canonical"], "kind": r["kind"],
            "cued": False, "aliases": [], "first": r["at"], "last": r["at"], "mentions": [],
        })  # fmt: skip
        if r["cued"] and not ent["cued"]:
            ent["kind"], ent["cued"] = r["kind"], True
        ent["aliases"] += [a for a in r["aliases"] if a not in ent["aliases"]]
        ent["first"], ent["last"] = min(ent["first"], r["at"]), max(ent["last"], r["at"])
        ent["mentions"].append({"memory_id": r["memory_id"], "role": r["role"]})
    return list(grouped.values())


def _waves(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """``rows`` in statements of which none holds two of one subject and type: a statement
    does not see what it created itself, and a later "moved to Bergen" must end the "lives in
    Oslo" said before it in the same batch."""
    waves: list[list[dict[str, Any]]] = []
    seen: dict[tuple[str, str], int] = {}
    for row in rows:
        key = (row["from_uid"], row["type"])
        n = seen[key] = seen.get(key, -1) + 1
        if n == len(waves):
            waves.append([])
        waves[n].append(row)
    return waves


def write(tx: Tx, namespace: str, plan: MentionPlan, now: str) -> None:
    """Apply ``plan`` inside the batch's transaction (after its memories are written)."""
    stale: list[str] = []
    if plan.refresh:
        found = tx.run("entity/forget_mentions", namespace=namespace, ids=plan.refresh)
        stale = [str(u) for u in found[0]["uids"]] if found else []
    if plan.rows:
        tx.run("entity/mention", namespace=namespace, now=now, entities=_by_entity(plan.rows))
    for wave in _waves(plan.relations):
        tx.run("entity/relate", namespace=namespace, now=now, rows=wave)
    if stale:
        entities.prune(tx, namespace, stale)
