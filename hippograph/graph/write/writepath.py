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

A batch is atomic: every fact is applied or none is.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from hippograph.graph import memories
from hippograph.graph.errors import Conflict
from hippograph.graph.model import Memory, NewMemory, Reinforcement, content_hash, now_iso
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.models.llm import ChatClient, JsonCompleter, LLMConfig
from hippograph.graph.store.store import Row, Store, Tx
from hippograph.graph.store.store import vector as as_vector
from hippograph.graph.write.decide import (
    NOOP_MIN,
    Candidate,
    Decider,
    Decision,
    LLMDecider,
    Neighbour,
    OfflineDecider,
    memoized,
    overlap,
)
from hippograph.settings import Settings

NEIGHBOURS_K = 8
# Items per neighbour query (each carries its embedding; ArcadeDB's Bolt rejects huge payloads).
NEIGHBOUR_CHUNK = 250
# Up to this many memories in the searched scopes, the exact fallback runs here on their
# embeddings; beyond it, in the database per item.
EXACT_LIMIT = 5_000
# A batch skips the vector index and searches exactly, here, when its scopes hold at most this
# many memories per item of the batch (and at most EXACT_LIMIT): reading an embedding costs
# about a twentieth of a vector-index query. A first import into a new namespace reads nothing.
EXACT_PER_ITEM = 20
Vector = npt.NDArray[np.float32]


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
class _Plan:
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


def scope_key_of(memory: Memory) -> str:
    if memory.scope == "project":
        return f"project:{memory.project}"
    if memory.scope == "session":
        return f"session:{memory.session_id}"
    return "global"


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
    """
    decider = decider or OfflineDecider()
    now = now_iso()
    digests = [content_hash(item.content) for item in items]
    keys = [memories.dedup_key(namespace, it, d) for it, d in zip(items, digests, strict=True)]
    if vectors is None:
        vectors = list(embedder.embed([item.content for item in items])) if items else []
    blocked = (
        _tombstoned(store, embedder, namespace, items, digests, vectors, tombstones_before)
        if respect_tombstones
        else set()
    )
    existing = {
        r["key"]: r["id"]
        for r in store.read("memory/find_existing", namespace=namespace, keys=list(set(keys)))
    }
    scopes = [memories.scope_key(item) for item in items]
    stored = _stored_neighbours(store, namespace, items, vectors, scopes)
    plan = _Plan()
    dimensions = len(vectors[0]) if len(vectors) else 0
    batch = _BatchIndex(len(items), dimensions, now)
    gone: set[str] = set()
    keyed: dict[str, str] = {}  # dedup key -> the memory that now holds that content
    with memoized():  # the batch's texts are each other's neighbours: features once each
        for i, item in enumerate(items):
            vector = np.asarray(vectors[i], dtype=np.float32)
            scope = memories.scope_key(item)
            decision_id = str(uuid.uuid4())
            links = list(episodes[i]) if episodes else []
            if i in blocked:
                _record(plan, namespace, now, source, decision_id, item, digests[i], links,
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
                neighbours = _neighbours(stored[i], item, vector, scope, batch, gone)
                decision = decider.decide(_candidate(item), neighbours)
            memory_id = _apply(plan, namespace, item, digests[i], keys[i], vector, decision, now)
            _record(plan, namespace, now, source, decision_id, item, digests[i], links, decision,
                    memory_id)  # fmt: skip
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
    event = _event(namespace, items, now) if record_event else None

    def work(tx: Tx) -> None:
        _write(tx, namespace, plan, now, derive, event)
        if extra is not None:
            extra(tx)

    try:
        store.write_tx(work)
    except Conflict:
        # A concurrent writer stored the same fact between our reads and this write: decide
        # again against what is there now, so the fact is stored exactly once.
        return commit(
            store, embedder, namespace, items, source=source, decider=decider,
            respect_tombstones=respect_tombstones, tombstones_before=tombstones_before,
            record_event=record_event, episodes=episodes, extra=extra, vectors=vectors,
        )  # fmt: skip
    changed = {o.target for o in plan.outcomes if o.target}  # NOOP, UPDATE, SUPERSEDE, ...
    return [
        replace(o, written=plan.written[o.memory_id])
        if o.created and o.memory_id in plan.written and o.memory_id not in changed
        else o
        for o in plan.outcomes
    ]


def _candidate(item: NewMemory) -> Candidate:
    return Candidate(
        content=item.content,
        memory_type=item.memory_type,
        provenance=item.provenance,
        occurred_at=item.occurred_at,
    )


def _stored_neighbours(
    store: Store,
    namespace: str,
    items: Sequence[NewMemory],
    vectors: Sequence[Any],
    scopes: Sequence[str],
) -> list[list[Neighbour]]:
    """Per item, its nearest stored memories in its namespace and scope (at most
    ``NEIGHBOURS_K``), for the whole batch in a few round trips: when the scopes are small, one
    exact search in process; otherwise the vector index for all items, then, for the items it
    gave fewer than k of ours, the exact search."""
    small = min(EXACT_LIMIT, EXACT_PER_ITEM * len(items))
    size = store.read(
        "decision/scope_size", namespace=namespace, scopes=sorted(set(scopes)), limit=small + 1
    )[0]["count"]
    if size <= small:
        if not size:  # nothing stored in these scopes yet: no neighbours to read
            return [[] for _ in items]
        return _as_neighbours(items, _exact_neighbours(store, namespace, vectors, scopes))
    found: list[list[Row]] = [[] for _ in items]
    candidates = max(NEIGHBOURS_K * store.dialect.vector_oversample, 50)
    for start in range(0, len(items), NEIGHBOUR_CHUNK):
        rows = [
            {"i": i, "embedding": as_vector(vectors[i]), "scope_key": scopes[i]}
            for i in range(start, min(start + NEIGHBOUR_CHUNK, len(items)))
        ]
        for r in store.read(
            "decision/neighbours_batch",
            namespace=namespace,
            rows=rows,
            candidates=candidates,
            k=NEIGHBOURS_K,
        ):
            found[int(r["i"])] = list(r["found"])
    short = [i for i in range(len(items)) if len(found[i]) < NEIGHBOURS_K]
    if short:
        # The index is shared by every namespace: when it hands back fewer than k of ours, an
        # exact search over the namespace's memories of those scopes decides.
        exact = _exact_neighbours(store, namespace, [vectors[i] for i in short],
                                  [scopes[i] for i in short])  # fmt: skip
        for i, rows_of_i in zip(short, exact, strict=True):
            found[i] = rows_of_i
    return _as_neighbours(items, found)


def _as_neighbours(items: Sequence[NewMemory], found: Sequence[list[Row]]) -> list[list[Neighbour]]:
    return [
        [
            Neighbour(
                id=r["id"],
                content=r["content"],
                memory_type=r["memory_type"],
                cosine=float(r["cosine"]),
                overlap=overlap(item.content, r["content"]),
                created_at=r["created_at"],
                updated_at=r["updated_at"],
            )
            for r in rows_of_item
        ]
        for item, rows_of_item in zip(items, found, strict=True)
    ]


def _exact_neighbours(
    store: Store, namespace: str, vectors: Sequence[Any], scopes: Sequence[str]
) -> list[list[Row]]:
    """Exact top-k by cosine among the active memories of the given scopes, computed here on
    one read of their embeddings (bounded by EXACT_LIMIT; beyond it, the database scans per
    item)."""
    rows = store.read(
        "decision/scope_vectors",
        namespace=namespace,
        scopes=sorted(set(scopes)),
        limit=EXACT_LIMIT + 1,
    )
    if len(rows) > EXACT_LIMIT:
        return [
            _exact_in_database(store, namespace, vector, scope)
            for vector, scope in zip(vectors, scopes, strict=True)
        ]
    if not rows:
        return [[] for _ in vectors]
    matrix = np.asarray([r["embedding"] for r in rows], dtype=np.float32)
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    queries = np.asarray(vectors, dtype=np.float32)
    queries /= np.maximum(np.linalg.norm(queries, axis=1, keepdims=True), 1e-12)
    cosines = queries @ matrix.T
    row_scopes = np.asarray([r["scope_key"] for r in rows])
    out = []
    for q, scope in enumerate(scopes):
        scores = np.where(row_scopes == scope, cosines[q], -np.inf)
        order = np.argsort(-scores, kind="stable")[:NEIGHBOURS_K]
        out.append([{**rows[j], "cosine": float(scores[j])} for j in order if scores[j] > -np.inf])
    return out


def _exact_in_database(store: Store, namespace: str, vector: Any, scope: str) -> list[Row]:
    seeds = memories.vector_seeds(store, namespace, as_vector(vector), NEIGHBOURS_K * 2)
    if not seeds:
        return []
    cosine = dict(seeds)
    return [
        {
            "id": m.id,
            "content": m.content,
            "memory_type": m.memory_type,
            "cosine": cosine[m.id],
            "created_at": m.created_at,
            "updated_at": m.updated_at,
        }
        for m in memories.get_many(store, namespace, [i for i, _ in seeds])
        if scope_key_of(m) == scope
    ][:NEIGHBOURS_K]


class _BatchIndex:
    """The facts this batch adds, as unit vectors, for nearest-neighbour lookups among them."""

    def __init__(self, size: int, dimensions: int, now: str) -> None:
        self.vectors = np.zeros((size, dimensions), dtype=np.float32)
        # Each entry's scope as a small integer: comparing one array of ints per lookup, not
        # an array of strings rebuilt each time (quadratic in the batch).
        self.scopes = np.zeros(size, dtype=np.int32)
        self.scope_codes: dict[str, int] = {}
        self.entries: list[tuple[str, NewMemory]] = []  # (memory id, item)
        self.position: dict[str, int] = {}
        self.now = now

    def add(self, memory_id: str, scope: str, vector: Vector, item: NewMemory) -> None:
        n = len(self.entries)
        self.position[memory_id] = n
        self.vectors[n] = _unit(vector)
        self.scopes[n] = self.scope_codes.setdefault(scope, len(self.scope_codes))
        self.entries.append((memory_id, item))

    def nearest(
        self, item: NewMemory, vector: Vector, scope: str, gone: set[str]
    ) -> list[Neighbour]:
        n = len(self.entries)
        code = self.scope_codes.get(scope)
        if not n or code is None:
            return []
        cosines = self.vectors[:n] @ _unit(vector)
        cosines[self.scopes[:n] != code] = -np.inf
        for memory_id in gone:
            if memory_id in self.position:
                cosines[self.position[memory_id]] = -np.inf
        top = _top(cosines, NEIGHBOURS_K)
        found = []
        for j in top:
            if cosines[j] == -np.inf:
                break
            memory_id, other = self.entries[j]
            found.append(
                Neighbour(
                    id=memory_id,
                    content=other.content,
                    memory_type=other.memory_type,
                    cosine=float(cosines[j]),
                    overlap=overlap(item.content, other.content),
                    created_at=other.occurred_at or self.now,
                    updated_at=self.now,
                )
            )
        return found


def _top(scores: npt.NDArray[np.float32], k: int) -> npt.NDArray[np.intp]:
    """Indexes of the ``k`` highest scores, highest first, ties in index order (as a stable
    sort of the whole array would give, without sorting it)."""
    if len(scores) > k:
        # Everything tied with the k-th score is kept, so ties still break by index.
        kth = np.partition(scores, len(scores) - k)[len(scores) - k]
        (within,) = np.nonzero(scores >= kth)
        return within[np.argsort(-scores[within], kind="stable")][:k]
    return np.argsort(-scores, kind="stable")[:k]


def _unit(vector: Vector) -> Vector:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector


def _neighbours(
    stored: Sequence[Neighbour],
    item: NewMemory,
    vector: Vector,
    scope: str,
    batch: _BatchIndex,
    gone: set[str],
) -> list[Neighbour]:
    """The item's stored neighbours (minus those this batch superseded) and the facts earlier
    in the same batch, nearest first."""
    found = [n for n in stored if n.id not in gone]
    found += batch.nearest(item, vector, scope, gone)
    found.sort(key=lambda n: -n.cosine)
    return found[:NEIGHBOURS_K]


def _tombstoned(
    store: Store,
    embedder: Embedder,
    namespace: str,
    items: Sequence[NewMemory],
    digests: Sequence[str],
    vectors: Sequence[Any],
    after: str | None,
) -> set[int]:
    """Indexes of items that repeat a forgotten fact (same hash, or a near-duplicate of a
    forgotten memory whose node is still there, archived)."""
    if not items or not store.read("decision/tombstone_count", namespace=namespace)[0]["count"]:
        return set()
    rows = store.read("decision/tombstoned_hashes", namespace=namespace, hashes=list(digests))
    hashes = {r["hash"] for r in rows if after is None or r["at"] > after}
    blocked = {i for i, d in enumerate(digests) if d in hashes}
    if after is not None:
        return blocked  # rebuild: archived nodes are gone, hashes are what is left
    for i, vector in enumerate(vectors):
        if i in blocked:
            continue
        seeds = memories.vector_seeds(
            store, namespace, as_vector(vector), 3, statuses=("archived",)
        )
        close = [mid for mid, cos in seeds if cos >= NOOP_MIN]
        if close and store.read("decision/tombstoned_ids", namespace=namespace, ids=close):
            blocked.add(i)
    return blocked


def _apply(
    plan: _Plan,
    namespace: str,
    item: NewMemory,
    digest: str,
    key: str,
    vector: Vector,
    decision: Decision,
    now: str,
) -> str:
    """Add the writes of one decision to the plan; return the id of the memory it lands in."""
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
    new_id = str(uuid.uuid4())
    props = {**memories._node_props(namespace, item, digest, key, vector, now), "id": new_id}
    plan.creates.append(props)
    plan.written[new_id] = memories.to_memory({"memory": props, "tags": tags})
    for tag in tags:
        plan.new_tags.setdefault(tag, []).append(new_id)
    if decision.action == "SUPERSEDE" and target:
        plan.supersedes.append((target, new_id, decision.reason))
    elif decision.action == "CONTRADICT" and target:
        plan.contradicts.append((new_id, target))
    return new_id


def _record(
    plan: _Plan,
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


def _event(namespace: str, items: Sequence[NewMemory], now: str) -> dict[str, Any]:
    return {
        "id": str(uuid.uuid4()),
        "namespace": namespace,
        "at": now,
        "items": [json.dumps(_as_dict(item), sort_keys=True) for item in items],
    }


def _as_dict(item: NewMemory) -> dict[str, Any]:
    """``dataclasses.asdict(item)`` without its deep copies (a tenth of a batch's time
    outside the embedding): the fields hold only strings, numbers, tuples of strings and the
    ``Source``."""
    return {**vars(item), "source": dict(vars(item.source))}


def _write(
    tx: Tx,
    namespace: str,
    plan: _Plan,
    now: str,
    derive: list[dict[str, Any]],
    event: dict[str, Any] | None,
) -> None:
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
    if plan.crumbs:
        rows = [{"id": k, "crumbs": v, "times": len(v)} for k, v in plan.crumbs.items()]
        tx.run("memory/reinforce", namespace=namespace, now=now, rows=rows)
    if plan.new_tags:
        tags = [{"name": t, "memory_ids": ids} for t, ids in plan.new_tags.items()]
        tx.run("tag/attach_new", namespace=namespace, tags=tags, now=now)
    if plan.tag_pairs:
        tx.run("tag/attach", namespace=namespace, pairs=plan.tag_pairs, now=now)
    if plan.supersedes:
        rows = [{"old_id": o, "new_id": n, "reason": why} for o, n, why in plan.supersedes]
        tx.run("memory/supersede", namespace=namespace, now=now, rows=rows)
    if plan.contradicts:
        rows = [{"from_id": a, "to_id": b} for a, b in plan.contradicts]
        tx.run("link/contradicts_rows", namespace=namespace, now=now, rows=rows)
    if plan.decisions:
        tx.run("decision/record", rows=plan.decisions)
    if derive:
        tx.run("episode/derive", namespace=namespace, pairs=derive, now=now)
    if event is not None:
        tx.run("episode/remember_event", event=event)


@dataclass(frozen=True, kw_only=True)
class ExtractionConfig:
    """When buffered turns are extracted, and by what.

    batch_size: a session's waiting turns are extracted once this many wait.
    max_age_s: ... or once the oldest has waited this long (seconds since ingest).
    client: the LLM extractor; None uses the offline extractor.
    decider: decides each fact against its neighbours; None uses the offline rules.
    """

    batch_size: int = 8
    max_age_s: float = 300.0
    client: JsonCompleter | None = None
    decider: Decider | None = None


DEFAULT_EXTRACTION = ExtractionConfig()


@dataclass
class WriteTools:
    """The configured LLM client (if any), the decider and the extraction settings, opened
    together for one request, command or job; ``close`` releases the HTTP pool."""

    decider: Decider
    extraction: ExtractionConfig
    client: ChatClient | None = None

    def close(self) -> None:
        if self.client is not None:
            self.client.close()


def write_tools(settings: Settings) -> WriteTools:
    """LLM decider + extractor when ``HIPPOGRAPH_LLM_BASE_URL``/``_MODEL`` are set, else the
    offline ones."""
    client = None
    decider: Decider = OfflineDecider()
    if settings.llm_base_url:
        client = ChatClient(
            LLMConfig(
                base_url=settings.llm_base_url,
                model=settings.llm_model,
                api_key=settings.llm_api_key or None,
                timeout_s=settings.llm_timeout_s,
            )
        )
        decider = LLMDecider(client)
    extraction = ExtractionConfig(
        batch_size=settings.extract_batch_size,
        max_age_s=settings.extract_max_age_s,
        client=client,
        decider=decider,
    )
    return WriteTools(decider=decider, extraction=extraction, client=client)
