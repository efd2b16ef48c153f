"""A batch's decisions turned into writes: the plan built before the transaction (new nodes,
content updates, reinforcements, tags, supersessions, contradictions, ``Decision`` records,
``DERIVED_FROM`` edges, the ``RememberEvent``) and the one transaction that applies it."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from hippograph.graph import chains, memories
from hippograph.graph.model import Memory, NewMemory, Reinforcement
from hippograph.graph.store.store import Tx
from hippograph.graph.store.store import vector as as_vector
from hippograph.graph.text import fulltext, standing
from hippograph.graph.write.decide import Decision
from hippograph.graph.write.neighbours import Vector


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """What happened to one fact: the memory it lives in now (None when skipped)."""

    action: str  # ADD, UPDATE, SUPERSEDE, CONTRADICT, NOOP, or SKIP (tombstoned)
    memory_id: str | None
    target: str | None
    created: bool
    decision_id: str
    reason: str
    decider: str
    # The memory exactly as this batch created it, when no later fact of the batch changed it
    # (callers need not read it back); None otherwise.
    written: Memory | None = None


@dataclass
class Plan:
    """The decisions of one batch, built before the write transaction."""

    outcomes: list[Outcome] = field(default_factory=list)
    creates: list[dict[str, Any]] = field(default_factory=list)
    tag_pairs: list[dict[str, str]] = field(default_factory=list)  # on existing memories
    new_tags: dict[str, list[str]] = field(default_factory=dict)  # tag -> created memories
    crumbs: dict[str, list[str]] = field(default_factory=dict)
    updates: list[dict[str, Any]] = field(default_factory=list)
    supersedes: list[tuple[str, str, str]] = field(default_factory=list)
    contradicts: list[tuple[str, str]] = field(default_factory=list)
    decisions: list[dict[str, Any]] = field(default_factory=list)
    written: dict[str, Memory] = field(default_factory=dict)
    # Stored memories indexed again ([{id, ft_terms}]): said after a turn that arrived late.
    reindexed: list[dict[str, Any]] = field(default_factory=list)


def add_decision(
    plan: Plan,
    namespace: str,
    item: NewMemory,
    digest: str,
    key: str,
    vector: Vector,
    decision: Decision,
    now: str,
    new_id: str,
    context: str = "",
) -> str:
    """Add the writes of one decision to the plan; return the id of the memory it lands in
    (``new_id`` when it creates one). ``context``: what the item was said after
    (`write.context`), indexed with its words."""
    target = decision.target
    tags = list(item.tags)
    if decision.action == "NOOP" and target:
        crumb = Reinforcement(at=now, session_id=item.session_id, message=item.source.messages)
        plan.crumbs.setdefault(target, []).append(json.dumps(asdict(crumb)))
        plan.tag_pairs += [{"memory_id": target, "tag": t} for t in tags]
        return target
    if decision.action == "UPDATE" and target:
        plan.updates.append(
            {
                "id": target,
                "content": item.content,
                "ft_terms": fulltext.indexed(namespace, item.content, context),
                **standing.props(namespace, item.content),
                "content_hash": digest,
                "dedup_key": key,
                "embedding": as_vector(vector),
                "provenance": item.provenance,
                "confidence": item.confidence if item.confidence is not None else 0.0,
                "previous": json.dumps({"at": now, "replaced_by": item.content,
                                        "reason": decision.reason}),
                "decision_id": "",
            }
        )  # fmt: skip
        plan.tag_pairs += [{"memory_id": target, "tag": t} for t in tags]
        return target
    props = {
        **memories.node_props(namespace, item, digest, key, vector, now, context),
        "id": new_id,
    }
    plan.creates.append(props)
    plan.written[new_id] = memories.to_memory({"memory": props, "tags": tags})
    for tag in tags:
        plan.new_tags.setdefault(tag, []).append(new_id)
    if decision.action == "SUPERSEDE" and target:
        plan.supersedes.append((target, new_id, decision.reason))
    elif decision.action == "CONTRADICT" and target:
        plan.contradicts.append((new_id, target))
    return new_id


def add_outcome(
    plan: Plan,
    namespace: str,
    now: str,
    source: str,
    decision_id: str,
    item: NewMemory,
    digest: str,
    episode_uids: list[str],
    decision: Decision,
    memory_id: str | None,
) -> None:
    created = decision.action in ("ADD", "SUPERSEDE", "CONTRADICT")
    plan.outcomes.append(
        Outcome(
            action=decision.action,
            memory_id=memory_id,
            target=decision.target,
            created=created,
            decision_id=decision_id,
            reason=decision.reason,
            decider=decision.decider,
        )
    )
    if decision.action == "UPDATE" and plan.updates:
        plan.updates[-1]["decision_id"] = decision_id
        previous = json.loads(plan.updates[-1]["previous"])
        plan.updates[-1]["previous"] = json.dumps({**previous, "decision_id": decision_id})
    row = {
        "id": decision_id,
        "namespace": namespace,
        "at": now,
        "source": source,
        "action": decision.action,
        "memory_id": memory_id,
        "target_id": decision.target,
        "reason": decision.reason,
        "decider": decision.decider,
        "similarity": decision.similarity,
        "content": item.content,
        "content_hash": digest,
        "episode_uids": episode_uids,
    }
    plan.decisions.append({k: v for k, v in row.items() if v is not None and v != []})


def remember_event(
    namespace: str, items: Sequence[NewMemory], now: str, event_id: str | None = None
) -> dict[str, Any]:
    return {
        "id": event_id or str(uuid.uuid4()),
        "namespace": namespace,
        "at": now,
        "items": [json.dumps(as_dict(item), sort_keys=True) for item in items],
    }


def as_dict(item: NewMemory) -> dict[str, Any]:
    """``dataclasses.asdict(item)`` without its deep copies (a tenth of a batch's time
    outside the embedding): the fields hold only strings, numbers, tuples of strings, the
    ``Source`` and the ``ChunkPosition`` of a piece of a long turn."""
    chunk = None if item.chunk is None else dict(vars(item.chunk))
    return {**vars(item), "source": dict(vars(item.source)), "chunk": chunk}


def write(
    tx: Tx,
    namespace: str,
    plan: Plan,
    now: str,
    derive: list[dict[str, Any]],
    event: dict[str, Any] | None,
) -> None:
    # What other writers never touch first (their own new nodes), then the nodes they may
    # change too, shared ones last: a transaction collides only with those that wrote a page
    # it wrote between its first touch of that page and its commit.
    if plan.decisions:
        tx.run("decision/record", rows=plan.decisions)
    if event is not None:
        tx.run("episode/remember_event", event=event)
    if plan.creates:
        tx.run("memory/create", rows=plan.creates)
    if plan.updates:
        # Store the text being replaced in the memory's history, read inside the transaction.
        current = {
            r["id"]: r["content"]
            for r in tx.run(
                "decision/current", namespace=namespace, ids=[u["id"] for u in plan.updates]
            )
        }
        for update in plan.updates:
            previous = json.loads(update["previous"])
            update["previous"] = json.dumps({**previous, "content": current.get(update["id"])})
        tx.run("decision/update_content", namespace=namespace, now=now, rows=plan.updates)
    if plan.reindexed:
        tx.run("memory/set_terms", rows=plan.reindexed)
    if plan.crumbs:
        rows = [{"id": k, "crumbs": v, "times": len(v)} for k, v in plan.crumbs.items()]
        tx.run("memory/reinforce", namespace=namespace, now=now, rows=rows)
    if plan.supersedes:
        rows = [{"old_id": o, "new_id": n, "reason": why} for o, n, why in plan.supersedes]
        # A target superseded meanwhile is retargeted to its chain's head; the new memory is
        # fresh, so no row can close a cycle.
        rows = chains.resolve(tx, namespace, rows)
        tx.run("memory/supersede", namespace=namespace, now=now, rows=rows)
    if plan.contradicts:
        rows = [{"from_id": a, "to_id": b} for a, b in plan.contradicts]
        tx.run("link/contradicts_rows", namespace=namespace, now=now, rows=rows)
    if derive:
        tx.run("episode/derive", namespace=namespace, pairs=derive, now=now)
    # Tags last: every writer that shares a tag changes its node (its count, its edge list).
    if plan.new_tags:
        tags = [{"name": t, "memory_ids": ids} for t, ids in plan.new_tags.items()]
        tx.run("tag/attach_new", namespace=namespace, tags=tags, now=now)
    if plan.tag_pairs:
        tx.run("tag/attach", namespace=namespace, pairs=plan.tag_pairs, now=now)
