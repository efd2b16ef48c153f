"""The entity seeds: memories that mention an entity the context names ("What does Ana do for
work?" reaches every memory mentioning Ana or "my sister", whatever their words), each
receiving ``entity_weight`` x the entity's rarity, so a person named in every turn seeds
nearly nothing (and one in more than ``max_entity_degree`` memories nothing at all)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hippograph.graph import entities
from hippograph.graph.recall.candidates import Pool, Query
from hippograph.graph.recall.expand import active_count, rarity
from hippograph.graph.recall.results import Step
from hippograph.graph.store.store import vector as as_vector
from hippograph.graph.text import entities as text


@dataclass
class EntityHits:
    """Memory id -> the step from the entity that reached it (its weight: the activation the
    memory receives), the strongest first; which are not active; their element ids."""

    seeds: dict[str, Step] = field(default_factory=dict)
    retired: set[str] = field(default_factory=set)
    eids: dict[str, str] = field(default_factory=dict)


def names(context: str) -> tuple[list[str], list[str]]:
    """The canonical names the context says, and the aliases ("my sister") it says."""
    found = text.find(context).mentions
    said = [m.canonical for m in found if not m.alias_only and m.canonical]
    aliases = [m.aliases[0] for m in found if m.alias_only]
    return said, aliases


def entity_hits(q: Query, query: Any) -> EntityHits:
    """What the entities the context names seed, the strongest first (see the module)."""
    config = q.config.gather
    limit = q.config.spread.max_entity_degree
    if config.entity_seeds <= 0 or config.entity_weight <= 0 or limit <= 0:
        return EntityHits()
    said, aliases = names(q.context)
    uids = {entities.uid_for(q.namespace, name) for name in said}
    if aliases:  # an alias is read off the entities that hold it (a scan of the namespace's)
        uids |= set(entities.resolve(q.store, q.namespace, aliases).values())
    if not uids:
        return EntityHits()
    rows = q.store.read(
        "recall/entity_seeds", namespace=q.namespace, uids=sorted(uids), statuses=q.seed_statuses,
        max_degree=limit, per_entity=config.entity_per_name, embedding=as_vector(query), **q.scope,
    )  # fmt: skip
    total = active_count(q.caches, q.store, q.namespace)
    found = EntityHits()
    ranked = sorted(
        (
            -config.entity_weight * rarity(r["degree"], total),
            -float(hit[2]),
            r["uid"],
            r["name"],
            hit,
        )
        for r in rows
        for hit in r["hits"]
    )
    for weight, _, uid, name, (memory_id, eid, _, status) in ranked:
        if memory_id not in found.seeds:
            found.seeds[memory_id] = Step(from_id=uid, to_id=memory_id, type="MENTIONS", via=name,
                                          weight=-weight)  # fmt: skip
            found.eids[memory_id] = eid
            if status != "active":
                found.retired.add(memory_id)
    return found


def add(pool: Pool, hits: EntityHits) -> None:
    """The hits into the pool (``seeds`` takes the first ``entity_seeds`` of them)."""
    pool.entities = hits.seeds
    pool.retired |= hits.retired
    pool.eids.update(hits.eids)
