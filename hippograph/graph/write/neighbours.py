"""Where a new fact's neighbours come from: its nearest stored memories in the namespace and
scope (the vector index, or an exact search when the scopes are small or the shared index hands
back too few), the facts earlier in the same batch, and the tombstones that block a forgotten
fact from coming back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from hippograph.graph import memories
from hippograph.graph.model import NewMemory, body_hash
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.store import nearest as shared_index
from hippograph.graph.store.store import Row, Store
from hippograph.graph.store.store import vector as as_vector
from hippograph.graph.text import restate
from hippograph.graph.text.statements import overlap
from hippograph.graph.write.decide import Neighbour

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

# A new fact this close to a forgotten one is a restatement of it and stays forgotten. With the
# bundled model, paraphrases of one fact score 0.90-0.95 ("My dog is called Rex" / "My dog's
# name is Rex" 0.94), while a changed value of the same attribute stays well below ("hate" /
# "love coffee" 0.79, "lives in Boston" / "in Denver" 0.64): 0.88 blocks the first, not the
# second. Lower than decide.NOOP_MIN (0.92), which merges two live memories into one.
TOMBSTONE_NEAR_MIN = 0.88


def stored_neighbours(
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
    candidates = shared_index.candidates(store, NEIGHBOURS_K, 50)
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
        if memories.scope_key(m) == scope
    ][:NEIGHBOURS_K]


class BatchIndex:
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
        top = top_k(cosines, NEIGHBOURS_K)
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


def top_k(scores: npt.NDArray[np.float32], k: int) -> npt.NDArray[np.intp]:
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


def nearest(
    stored: Sequence[Neighbour],
    item: NewMemory,
    vector: Vector,
    scope: str,
    batch: BatchIndex,
    gone: set[str],
) -> list[Neighbour]:
    """The item's stored neighbours (minus those this batch superseded) and the facts earlier
    in the same batch, nearest first."""
    found = [n for n in stored if n.id not in gone]
    found += batch.nearest(item, vector, scope, gone)
    found.sort(key=lambda n: -n.cosine)
    return found[:NEIGHBOURS_K]


def tombstoned(
    store: Store,
    embedder: Embedder,
    namespace: str,
    items: Sequence[NewMemory],
    digests: Sequence[str],
    vectors: Sequence[Any],
    after: str | None,
) -> set[int]:
    """Indexes of items that repeat a forgotten fact: the same content, the same content with
    or without a "Speaker: " prefix (said by someone else), a near-duplicate (cosine at
    least ``TOMBSTONE_NEAR_MIN`` to the forgotten embedding kept on the tombstone, or to a
    forgotten memory whose node is still there, archived), or a restatement in other words
    (``text/restate.py``). ``after``: only tombstones written after it count (rebuild replays
    what came before them)."""
    if not items or not store.read("decision/tombstone_count", namespace=namespace)[0]["count"]:
        return set()
    marks = [r for r in store.read("decision/tombstone_marks", namespace=namespace)
             if after is None or r["at"] > after]  # fmt: skip
    hashes = {r[k] for r in marks for k in ("content_hash", "body_hash") if r[k]}
    blocked = {
        i for i, (item, d) in enumerate(zip(items, digests, strict=True))
        if d in hashes or body_hash(item.content) in hashes
    }  # fmt: skip
    kept = [r["embedding"] for r in marks if r["embedding"] is not None]
    if kept and len(vectors):
        forgotten = _rows_unit(np.asarray(kept, dtype=np.float32))
        cosines = _rows_unit(np.asarray(vectors, dtype=np.float32)) @ forgotten.T
        blocked |= {int(i) for i in np.flatnonzero(cosines.max(axis=1) >= TOMBSTONE_NEAR_MIN)}
    blocked |= _restating(embedder, namespace, items, marks, blocked)
    if after is not None:
        return blocked  # rebuild: archived nodes are gone, the tombstones are what is left
    for i, vector in enumerate(vectors):
        if i in blocked:
            continue
        seeds = memories.vector_seeds(
            store, namespace, as_vector(vector), 3, statuses=("archived",)
        )
        close = [mid for mid, cos in seeds if cos >= TOMBSTONE_NEAR_MIN]
        if close and store.read("decision/tombstoned_ids", namespace=namespace, ids=close):
            blocked.add(i)
    return blocked


def _restating(
    embedder: Embedder,
    namespace: str,
    items: Sequence[NewMemory],
    marks: Sequence[Row],
    blocked: set[int],
) -> set[int]:
    """Indexes of items (not yet ``blocked``) that restate a tombstone's statement in other
    words: their neutral forms compared (`text.restate`)."""
    marks = [m for m in marks if m.get("neutral_embedding") is not None]
    open_items = [i for i in range(len(items)) if i not in blocked]
    if not marks or not open_items:
        return set()
    forms = [restate.neutral(items[i].content) for i in open_items]
    mine = _rows_unit(np.asarray(embedder.embed(forms), dtype=np.float32))
    theirs = _rows_unit(np.asarray([m["neutral_embedding"] for m in marks], dtype=np.float32))
    cosines = mine @ theirs.T
    found = set()
    for row, i in enumerate(open_items):
        numbers = restate.number_keys(namespace, items[i].content)
        relations = restate.relation_keys(namespace, items[i].content)
        if any(
            restate.restates(
                float(cosines[row, col]),
                mark["number_keys"] or (),
                numbers,
                mark["relation_keys"] or (),
                relations,
            )
            for col, mark in enumerate(marks)
        ):
            found.add(i)
    return found


def _rows_unit(m: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    unit: npt.NDArray[np.float32] = m / np.maximum(norms, 1e-12)
    return unit
