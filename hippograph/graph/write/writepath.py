"""The one write path for new facts: explicit remembers, extraction and rebuild all end here.

For each fact, in order:

1. its normalized content hash: an active memory with the same hash in the same namespace and
   scope is reinforced (NOOP, no neighbour search);
2. optionally the tombstones: a fact forgotten before (same hash, or a near-duplicate of a
   forgotten memory) is skipped; explicit remembers do not check, the user asked again;
3. its top-k neighbours in the namespace and scope (vector index, plus the word overlap of each,
   plus the facts earlier in the same batch) and a ``Decider`` picks ADD / UPDATE / SUPERSEDE /
   CONTRADICT / NOOP;
4. one transaction applies every decision of the batch, records a ``Decision`` node for each
   (what, which target, why, which decider), optional ``DERIVED_FROM`` edges to episodes and,
   for explicit remembers, an append-only ``RememberEvent`` that rebuild replays.

A batch is atomic: every fact is applied or none is. ``remember`` is the entry point for explicit
memories (validation, privacy filter, tag inference, then ``commit``); where neighbours come
from is ``write.neighbours``, how decisions become writes is ``write.plan``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from hippograph.graph import memories, tracing, validate
from hippograph.graph.errors import Conflict
from hippograph.graph.model import NewMemory, RememberResult, content_hash, now_iso
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.store.store import Store, Tx
from hippograph.graph.text.statements import memoized
from hippograph.graph.write import context, mentions, scrub
from hippograph.graph.write import ids as derived_ids
from hippograph.graph.write.decide import Candidate, Decider, Decision, OfflineDecider
from hippograph.graph.write.neighbours import BatchIndex, nearest, stored_neighbours, tombstoned
from hippograph.graph.write.plan import (
    Outcome,
    Plan,
    add_decision,
    add_outcome,
    remember_event,
    write,
)

# Turns text into the content actually stored (the privacy filter); identity by default.
ContentFilter = Callable[[str, str], str]
TagInferer = Callable[[NewMemory], Sequence[str]]


@dataclass(frozen=True, kw_only=True)
class WritePolicy:
    """How the write path treats content: privacy filter, tag inference, limits."""

    limits: validate.Limits = memories.DEFAULT_LIMITS
    content_filter: ContentFilter | None = None
    infer_tags: TagInferer | None = None
    # Who decides ADD/UPDATE/SUPERSEDE/CONTRADICT/NOOP for a new fact; None: the offline rules.
    decider: Decider | None = None


def prepare(items: Sequence[NewMemory], policy: WritePolicy) -> list[NewMemory]:
    """Validate and filter a whole batch before anything is written (a batch is atomic)."""
    with tracing.span("write.validate", items=len(items)):
        validate.batch_size(len(items), policy.limits)
        fields = [f"memories[{i}]" if len(items) > 1 else "memory" for i in range(len(items))]
        valid = [
            validate.new_memory(it, policy.limits, f) for it, f in zip(items, fields, strict=True)
        ]
    with tracing.span("write.filter", items=len(items)):
        return [
            _filtered(item, clean, field, policy)
            for item, clean, field in zip(items, valid, fields, strict=True)
        ]


def _filtered(item: NewMemory, clean: NewMemory, field: str, policy: WritePolicy) -> NewMemory:
    """``clean`` (``item`` validated) through the content filter, with the inferred tags."""
    if policy.content_filter is not None:
        clean = scrub.memory(clean, policy.content_filter, field, raw_tags=item.tags)
    if policy.infer_tags is not None:
        inferred = [validate.tag_name(t) for t in policy.infer_tags(clean)]
        merged = tuple(dict.fromkeys((*clean.tags, *inferred)))[: validate.MAX_TAGS]
        if policy.content_filter is not None:
            merged = scrub.tags(merged, policy.content_filter, f"{field}.tags")
        clean = replace(clean, tags=merged)
    return clean


def remember(
    store: Store,
    embedder: Embedder,
    namespace: str,
    items: Sequence[NewMemory],
    *,
    policy: WritePolicy = WritePolicy(),
    source: str = "remember",
) -> list[RememberResult]:
    """Store ``items`` through the decision path (``graph.write.writepath``): identical content in
    the same namespace and scope reinforces; otherwise the policy's decider (offline unless an
    LLM is configured) chooses ADD, UPDATE, SUPERSEDE, CONTRADICT or NOOP against the closest
    memories. Each call is also logged as a ``RememberEvent`` so ``rebuild`` can replay it.

    The whole batch is one transaction: either every item is stored or none is. ``source``:
    what the decision records name as the writer (``run``: a run's distilled lessons, which
    erasure tells apart from a caller's explicit remember).
    """
    validate.namespace(namespace)
    prepared = prepare(items, policy)
    event_id = str(uuid.uuid4())
    outcomes = commit(
        store,
        embedder,
        namespace,
        prepared,
        source=source,
        decider=policy.decider,
        record_event=True,
        event_id=event_id,
        ids=derived_ids.remembered(namespace, event_id, len(prepared)),
    )
    # Memories this batch created and left alone are returned as written; only the others
    # (reinforced, updated, superseded) are read back.
    by_id = {o.written.id: o.written for o in outcomes if o.written is not None}
    ids = [o.memory_id for o in outcomes if o.memory_id is not None and o.memory_id not in by_id]
    if ids:
        by_id.update(
            (m.id, m) for m in memories.get_many(store, namespace, list(dict.fromkeys(ids)))
        )
    seen: set[str] = set()
    results = []
    for outcome in outcomes:
        memory_id = outcome.memory_id or ""
        created = outcome.created and memory_id not in seen
        results.append(
            RememberResult(
                memory=by_id[memory_id],
                created=created,
                action=outcome.action,
                target=outcome.target,
                reason=outcome.reason,
            )
        )
        seen.add(memory_id)
    return results


def commit(
    store: Store,
    embedder: Embedder,
    namespace: str,
    items: Sequence[NewMemory],
    *,
    source: str,
    decider: Decider | None = None,
    respect_tombstones: bool = False,
    tombstones_before: str | None = None,
    record_event: bool = False,
    episodes: Sequence[Sequence[str]] | None = None,
    extra: Callable[[Tx], None] | None = None,
    vectors: Sequence[Any] | None = None,
    ids: Sequence[str] | None = None,
    event_id: str | None = None,
) -> list[Outcome]:
    """Decide and apply ``items`` (already validated and privacy-filtered by ``prepare``).

    Args:
        source: who sends the facts (``remember``, ``extract``, ``rebuild``), recorded.
        decider: defaults to the offline decider.
        respect_tombstones: skip facts that were forgotten (extraction, rebuild).
        tombstones_before: with respect_tombstones, only tombstones written after this time
            count (rebuild replaying an explicit remember: a later forget wins, an earlier one
            was overridden by the user saying it again).
        record_event: write a ``RememberEvent`` holding the items (explicit remembers).
        episodes: per item, the uids of the ``Episode`` nodes it was derived from.
        extra: more work for the same transaction (e.g. marking episodes extracted).
        vectors: the items' embeddings when the caller computed them (in one larger batch).
        ids: per item, the id of the memory it creates, if it creates one (``write.ids``:
            derived from the log, so a rebuild gives the same); None: random ids. An id
            already taken in the namespace is replaced by a random one.
        event_id: with record_event, the ``RememberEvent``'s id (``ids`` derive from it).
    """
    decider = decider or OfflineDecider()
    now = now_iso()
    digests = [content_hash(item.content) for item in items]
    keys = [memories.dedup_key(namespace, it, d) for it, d in zip(items, digests, strict=True)]
    if vectors is None:
        with tracing.span("write.embed", texts=len(items)):
            vectors = list(embedder.embed([item.content for item in items])) if items else []
    blocked = (
        tombstoned(store, embedder, namespace, items, digests, vectors, tombstones_before)
        if respect_tombstones
        else set()
    )
    existing = {
        r["key"]: r["id"]
        for r in store.read("memory/find_existing", namespace=namespace, keys=list(set(keys)))
    }
    fresh = _fresh_ids(store, namespace, ids, len(items))
    scopes = [memories.scope_key(item) for item in items]
    stored = stored_neighbours(store, namespace, items, vectors, scopes)
    contexts, followers = context.contexts(store, namespace, items)
    plan = Plan()
    dimensions = len(vectors[0]) if len(vectors) else 0
    batch = BatchIndex(len(items), dimensions, now)
    gone: set[str] = set()
    keyed: dict[str, str] = {}  # dedup key -> the memory that now holds that content
    written: list[mentions.Written] = []  # memories whose content this batch writes
    with memoized():  # the batch's texts are each other's neighbours: features once each
        for i, item in enumerate(items):
            vector = np.asarray(vectors[i], dtype=np.float32)
            scope = memories.scope_key(item)
            decision_id = str(uuid.uuid4())
            links = list(episodes[i]) if episodes else []
            if i in blocked:
                add_outcome(plan, namespace, now, source, decision_id, item, digests[i], links,
                        Decision(action="SKIP", target=None, decider="tombstone",
                                 reason="this fact was forgotten; only an explicit remember "
                                        "brings it back"), None)  # fmt: skip
                continue
            same = keyed.get(keys[i]) or existing.get(keys[i])
            if same is not None and same not in gone:
                decision = Decision(
                    action="NOOP",
                    target=same,
                    decider="hash",
                    reason="identical content",
                    similarity=1,
                )
            else:
                neighbours = nearest(stored[i], item, vector, scope, batch, gone)
                decision = decider.decide(_candidate(item), neighbours)
            memory_id = add_decision(
                plan,
                namespace,
                item,
                digests[i],
                keys[i],
                vector,
                decision,
                now,
                fresh[i],
                contexts[i],
            )
            add_outcome(plan, namespace, now, source, decision_id, item, digests[i], links,
                        decision, memory_id)  # fmt: skip
            if plan.outcomes[-1].created or decision.action == "UPDATE":
                created = plan.written.get(memory_id) if plan.outcomes[-1].created else None
                at = created.created_at if created else item.occurred_at or now
                written.append(mentions.Written(memory_id, item, at, created is None))
            if plan.outcomes[-1].created:
                # A turn that arrived late is now what the stored turn after it was said after.
                plan.reindexed += followers.get(i, [])
            keyed[keys[i]] = memory_id
            if decision.action in ("ADD", "SUPERSEDE", "CONTRADICT"):
                batch.add(memory_id, scope, vector, item)
            if decision.action == "SUPERSEDE" and decision.target:
                gone.add(decision.target)
    derive = [
        {"memory_id": o.memory_id, "episode_uid": uid}
        for o, item_links in zip(plan.outcomes, episodes or [], strict=False)
        if o.memory_id
        for uid in item_links
    ]
    event = remember_event(namespace, items, now, event_id) if record_event else None
    mentioned = mentions.plan(store, namespace, written)

    def work(tx: Tx) -> None:
        write(tx, namespace, plan, now, derive, event)
        mentions.write(tx, namespace, mentioned, now)  # entities are shared: last, like tags
        if extra is not None:
            extra(tx)

    try:
        with tracing.span("write.write", namespace, items=len(items)) as span:
            store.write_tx(work)
            span.set_attribute("created", sum(o.created for o in plan.outcomes))
    except Conflict:
        # A concurrent writer stored the same fact between our reads and this write: decide
        # again against what is there now, so the fact is stored exactly once.
        return commit(
            store, embedder, namespace, items, source=source, decider=decider,
            respect_tombstones=respect_tombstones, tombstones_before=tombstones_before,
            record_event=record_event, episodes=episodes, extra=extra, vectors=vectors,
            ids=ids, event_id=event_id,
        )  # fmt: skip
    changed = {o.target for o in plan.outcomes if o.target}  # NOOP, UPDATE, SUPERSEDE, ...
    return [
        replace(o, written=plan.written[o.memory_id])
        if o.created and o.memory_id in plan.written and o.memory_id not in changed
        else o
        for o in plan.outcomes
    ]


def _fresh_ids(store: Store, namespace: str, ids: Sequence[str] | None, count: int) -> list[str]:
    """The id each item's new memory would get: ``ids`` where none of the namespace's memories
    holds it yet (a memory written meanwhile under the same derived id keeps it) and no earlier
    item of the batch has it, else random."""
    if ids is None:
        return [str(uuid.uuid4()) for _ in range(count)]
    taken = {r["id"] for r in store.read("memory/existing_ids", namespace=namespace, ids=list(ids))}
    fresh = []
    for i in ids:
        fresh.append(str(uuid.uuid4()) if i in taken else i)
        taken.add(i)
    return fresh


def _candidate(item: NewMemory) -> Candidate:
    return Candidate(
        content=item.content,
        memory_type=item.memory_type,
        provenance=item.provenance,
        occurred_at=item.occurred_at,
    )
