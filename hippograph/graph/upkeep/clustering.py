"""Topic clusters over memory embeddings: pure compute, no database I/O.

How :func:`cluster` works, and why:

1. Rows are L2-normalised, so Euclidean distance ranks pairs exactly as cosine does.
2. Above ``sample_above`` rows HDBSCAN is fitted on a seeded random sample of that size:
   its cost grows faster than linearly, so a fixed-size sample bounds the run time.
3. Above ``reduce_above`` fitted rows they are projected onto their top ``reduce_to``
   principal components (an exact eigendecomposition of the 384x384 covariance: fast and
   deterministic). Tree-based HDBSCAN is hopeless in 384 dimensions.
4. HDBSCAN labels are final for the rows it was fitted on. A row outside the sample joins
   its nearest centroid (cosine in the full space) when the cosine reaches that cluster's
   floor, the higher of: the members' own spread (leave-one-out mean minus four standard
   deviations), and the cut that best reproduces HDBSCAN's verdicts on the fitted rows
   nearest that centroid. The second keeps a diffuse cluster from swallowing background
   rows HDBSCAN would have called noise. Everything else is noise.
5. Cluster ids are carried over from the previous run when membership mostly agrees.

``bench/cluster_speed.py`` measures the defaults on 100,000 synthetic vectors.
"""

from __future__ import annotations

import hashlib
import math
import uuid
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from hippograph.graph.errors import InvalidInput
from hippograph.graph.write.tagging import terms

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.intp]

_SEED = 20240601
_CHUNK = 8192
_NOISE = -1
# Member cosines have a heavy lower tail: at 3 sigmas ~0.5% of true members were dropped
# in bench/cluster_speed.py, at 4 none.
_FLOOR_SIGMAS = 4.0


@dataclass(frozen=True, kw_only=True)
class ClusterConfig:
    """Tunables for :func:`cluster`.

    min_cluster_size: smallest group HDBSCAN reports (counted in the fitted sample).
    min_samples: HDBSCAN density smoothing; ``None`` means ``min_cluster_size``.
    reduce_to: principal components kept before HDBSCAN when reducing.
    reduce_above: reduce when more rows than this are fitted.
    sample_above: fit HDBSCAN on a seeded sample of this many rows when there are more.
    stable_overlap: share of a new cluster's members that must come from one previous
        cluster for it to inherit that cluster's id.

    Defaults come from bench/cluster_speed.py (100k x 384, 200 blobs, 2 cores): 16
    components merged or dropped blobs (180 of 200 found); 48 found all 200. HDBSCAN time
    grows faster than linearly with the sample, so 15,000 rows keeps a run near 10-20 s.
    """

    min_cluster_size: int = 5
    min_samples: int | None = None
    reduce_to: int = 48
    reduce_above: int = 2000
    sample_above: int = 15000
    stable_overlap: float = 0.5

    def __post_init__(self) -> None:
        if self.min_cluster_size < 2:
            raise InvalidInput("min_cluster_size", "must be at least 2", limit=2)
        if self.min_samples is not None and self.min_samples < 1:
            raise InvalidInput("min_samples", "must be at least 1 or None", limit=1)
        if self.reduce_to < 2:
            raise InvalidInput("reduce_to", "must be at least 2", limit=2)
        if self.sample_above < self.min_cluster_size:
            raise InvalidInput("sample_above", "must be >= min_cluster_size")
        if not 0.0 < self.stable_overlap <= 1.0:
            raise InvalidInput("stable_overlap", "must be in (0, 1]", limit=1.0)


DEFAULT_CLUSTER_CONFIG = ClusterConfig()


@dataclass(frozen=True, kw_only=True)
class Cluster:
    """One topic: its members and their normalised mean embedding."""

    id: str
    member_ids: tuple[str, ...]
    centroid: tuple[float, ...]
    size: int


@dataclass(frozen=True, kw_only=True)
class ClusterResult:
    """Clusters, largest first, and memory id -> (cluster id, cosine to centroid in 0..1).

    Noise memories appear in no cluster and have no assignment.
    """

    clusters: list[Cluster]
    assignments: dict[str, tuple[str, float]]


def cluster(
    ids: Sequence[str],
    embeddings: npt.ArrayLike,
    previous: Mapping[str, str] | None = None,
    config: ClusterConfig = DEFAULT_CLUSTER_CONFIG,
) -> ClusterResult:
    """Group memories by embedding; deterministic for the same input.

    ids: memory ids, unique, one per embedding row.
    embeddings: ``(len(ids), dim)`` array; rows are normalised here.
    previous: memory id -> cluster id from the last run, used to keep ids stable.
    config: see :class:`ClusterConfig`.
    """
    x = _validated(ids, embeddings)
    if len(ids) <= max(config.min_cluster_size, config.min_samples or 0):
        return ClusterResult(clusters=[], assignments={})
    fit = _sample(len(ids), config.sample_above)
    labels = _extend(x, fit, _discover(x[fit], config))
    k = int(labels.max()) + 1
    centroids = _normalized(_sums(x, labels, k))
    return _result(ids, x, labels, centroids, previous or {}, config.stable_overlap)


def _validated(ids: Sequence[str], embeddings: npt.ArrayLike) -> FloatArray:
    x = np.asarray(embeddings, dtype=np.float32)
    if x.ndim != 2 or x.shape[0] != len(ids):
        raise InvalidInput("embeddings", f"expected shape ({len(ids)}, dim), got {x.shape}")
    if len(set(ids)) != len(ids):
        raise InvalidInput("ids", "must be unique")
    if not np.isfinite(x).all():
        raise InvalidInput("embeddings", "contain NaN or infinite values")
    return _normalized(x)


def _normalized(x: FloatArray) -> FloatArray:
    norms = np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)
    unit: FloatArray = np.divide(x, norms, dtype=np.float32)
    return unit


def _discover(x: FloatArray, config: ClusterConfig) -> IntArray:
    """HDBSCAN labels for the rows given, reduced first when there are many."""
    z = x.astype(np.float64)
    if len(z) > config.reduce_above and config.reduce_to < z.shape[1]:
        z = _project(z, config.reduce_to)
    return _hdbscan(z, config)


def _sample(n: int, size: int) -> IntArray:
    if n <= size:
        return np.arange(n, dtype=np.intp)
    rng = np.random.default_rng(_SEED)
    return np.sort(rng.choice(n, size=size, replace=False)).astype(np.intp)


def _project(z: npt.NDArray[np.float64], dims: int) -> npt.NDArray[np.float64]:
    """Top principal components via the covariance's eigenvectors (exact, no randomness)."""
    centered = z - z.mean(axis=0)
    _, vectors = np.linalg.eigh(centered.T @ centered)
    return np.ascontiguousarray(centered @ vectors[:, ::-1][:, :dims])


def _hdbscan(z: npt.NDArray[np.float64], config: ClusterConfig) -> IntArray:
    # Imported here: hdbscan pulls in scikit-learn (about a second), which label() and
    # callers that only read clusters should not pay for.
    import hdbscan

    model = hdbscan.HDBSCAN(
        min_cluster_size=config.min_cluster_size,
        min_samples=config.min_samples,
        algorithm=_algorithm(*z.shape),
    )
    return np.asarray(model.fit_predict(z), dtype=np.intp)


def _algorithm(n: int, dims: int) -> str:
    # Measured on the 2-core box: Prim's with a k-d tree was 2x faster than Boruvka at 32
    # dims; in 384 dims the full distance matrix ("generic") was 8x faster at n=2000 and
    # fits in memory (n^2 floats) up to a few thousand rows.
    if dims <= 64:
        return "prims_kdtree"
    return "generic" if n <= 6000 else "prims_balltree"


def _extend(x: FloatArray, fit: IntArray, seed: IntArray) -> IntArray:
    """Labels for all rows: the fitted rows keep theirs, the others may join a centroid."""
    labels = np.full(len(x), _NOISE, dtype=np.intp)
    labels[fit] = seed
    rest = np.setdiff1d(np.arange(len(x)), fit)
    k = int(seed.max()) + 1
    if k == 0 or len(rest) == 0:
        return labels
    sums = _sums(x[fit], seed, k)
    floors = _floors(x[fit], seed, sums)
    best, cos = _nearest(x[rest], _normalized(sums))
    close = cos > floors[best]
    labels[rest[close]] = best[close]
    return labels


def _sums(x: FloatArray, labels: IntArray, k: int) -> FloatArray:
    """Per label, the sum of its rows (noise rows ignored)."""
    placed = np.flatnonzero(labels != _NOISE)
    placed = placed[np.argsort(labels[placed], kind="stable")]
    present, starts = np.unique(labels[placed], return_index=True)
    sums = np.zeros((k, x.shape[1]), dtype=np.float32)
    if len(placed):
        sums[present] = np.add.reduceat(x[placed], starts, axis=0)
    return sums


def _floors(x: FloatArray, labels: IntArray, sums: FloatArray) -> FloatArray:
    """Per cluster, the cosine an unfitted row must exceed to join it (see module doc)."""
    placed = labels != _NOISE
    member_cos = _leave_one_out(x[placed], labels[placed], sums)
    best, cos = _nearest(x, _normalized(sums))
    outside = best != labels
    floors = np.empty(len(sums), dtype=np.float32)
    for c in range(len(sums)):
        inside = member_cos[labels[placed] == c]
        spread = inside.mean() - _FLOOR_SIGMAS * inside.std()
        floors[c] = max(spread, _best_cut(inside, cos[outside & (best == c)]))
    return floors


def _leave_one_out(x: FloatArray, labels: IntArray, sums: FloatArray) -> FloatArray:
    """Each member's cosine to its cluster's centroid computed without it, as an unfitted
    row would see it; with itself included, small clusters look tighter than they are."""
    rows, total = x.astype(np.float64), sums[labels].astype(np.float64)
    dot = np.einsum("ij,ij->i", rows, total)
    self_dot = np.einsum("ij,ij->i", rows, rows)
    rest_norm = np.sqrt(np.maximum((total * total).sum(axis=1) - 2 * dot + self_dot, 1e-12))
    cos: FloatArray = ((dot - self_dot) / rest_norm).astype(np.float32)
    return cos


def _best_cut(members: FloatArray, others: FloatArray) -> float:
    """The cosine above which HDBSCAN's verdicts on these rows are best reproduced.

    ``members`` HDBSCAN put in the cluster; ``others`` are nearest to it but were left out.
    Returns the highest "other" below the cut, or -inf when no cut beats taking all.
    """
    if len(others) == 0:
        return -math.inf
    values = np.concatenate([members, others])
    is_member = np.concatenate([np.ones(len(members)), np.zeros(len(others))])
    order = np.argsort(values, kind="stable")
    values, is_member = values[order], is_member[order]
    members_below = np.concatenate([[0.0], np.cumsum(is_member)])
    others_from = len(others) - np.concatenate([[0.0], np.cumsum(1.0 - is_member)])
    cut = int(np.argmin(members_below + others_from))
    return float(values[cut - 1]) if cut > 0 else -math.inf


def _nearest(x: FloatArray, centroids: FloatArray) -> tuple[IntArray, FloatArray]:
    """Index of and cosine to each row's nearest centroid, in chunks to bound memory."""
    best = np.empty(len(x), dtype=np.intp)
    cos = np.empty(len(x), dtype=np.float32)
    for start in range(0, len(x), _CHUNK):
        sims = x[start : start + _CHUNK] @ centroids.T
        best[start : start + _CHUNK] = sims.argmax(axis=1)
        cos[start : start + _CHUNK] = sims.max(axis=1)
    return best, cos


def _result(
    ids: Sequence[str],
    x: FloatArray,
    labels: IntArray,
    centroids: FloatArray,
    previous: Mapping[str, str],
    stable_overlap: float,
) -> ClusterResult:
    found = [(k, np.flatnonzero(labels == k)) for k in range(centroids.shape[0])]
    groups = [(k, rows, tuple(ids[r] for r in rows.tolist())) for k, rows in found if len(rows)]
    groups.sort(key=lambda group: (-len(group[2]), min(group[2])))
    names = _stable_ids([members for _, _, members in groups], previous, stable_overlap)
    clusters: list[Cluster] = []
    assignments: dict[str, tuple[str, float]] = {}
    for name, (k, rows, member_ids) in zip(names, groups, strict=True):
        scores = np.clip(x[rows] @ centroids[k], 0.0, 1.0)
        for memory_id, score in zip(member_ids, scores.tolist(), strict=True):
            assignments[memory_id] = (name, score)
        centroid = tuple(centroids[k].tolist())
        clusters.append(Cluster(id=name, member_ids=member_ids, centroid=centroid, size=len(rows)))
    return ClusterResult(clusters=clusters, assignments=assignments)


def _stable_ids(
    groups: Sequence[Sequence[str]], previous: Mapping[str, str], stable_overlap: float
) -> list[str]:
    """Reuse a previous id for the group holding enough of its members; else a fresh id.

    Candidates are settled largest overlap first, so when a previous cluster splits the
    bigger part keeps the id; each previous id is handed out at most once.
    """
    candidates: list[tuple[int, str, int]] = []
    for index, members in enumerate(groups):
        counts = Counter(previous[m] for m in members if m in previous)
        for old_id, count in counts.items():
            if count / len(members) >= stable_overlap:
                candidates.append((-count, old_id, index))
    names: list[str | None] = [None] * len(groups)
    taken: set[str] = set()
    for _, old_id, index in sorted(candidates):
        if names[index] is None and old_id not in taken:
            names[index] = old_id
            taken.add(old_id)
    reserved = taken | set(previous.values())
    return [name or _fresh_id(groups[i], reserved) for i, name in enumerate(names)]


def _fresh_id(members: Sequence[str], reserved: set[str]) -> str:
    """A uuid4-shaped hex derived from the members, so reruns agree; never a reserved id."""
    digest = hashlib.blake2b("\n".join(sorted(members)).encode(), digest_size=16)
    while True:
        fresh = uuid.UUID(bytes=digest.digest(), version=4).hex
        if fresh not in reserved:
            reserved.add(fresh)
            return fresh
        digest.update(b"\x00")


def document_frequencies(texts: Iterable[str]) -> dict[str, int]:
    """Term -> number of texts containing it, with the tokenizer :func:`label` uses."""
    df: Counter[str] = Counter()
    for text in texts:
        df.update(_label_terms(text))
    return dict(df)


def label(
    member_texts: Sequence[str],
    all_texts_df: Mapping[str, int] | None = None,
    n_docs: int = 0,
    top: int = 3,
) -> str:
    """A short name from the members' most distinctive terms, e.g. "hiking · camping · trail".

    member_texts: the texts of the cluster's memories.
    all_texts_df: term -> document frequency over the whole corpus (see
        :func:`document_frequencies`); ``None`` ranks by in-cluster frequency alone.
    n_docs: number of documents ``all_texts_df`` was counted over.
    top: how many terms to join. Returns "" when the members have no content terms.
    """
    inside = document_frequencies(member_texts)
    total = max(n_docs, len(member_texts))

    def score(term: str) -> float:
        if all_texts_df is None:
            return float(inside[term])
        corpus_df = max(all_texts_df.get(term, 0), inside[term])
        return inside[term] * (math.log((1 + total) / (1 + corpus_df)) + 1.0)

    ranked = sorted(inside, key=lambda term: (-score(term), term))
    return " · ".join(ranked[:top])


def _label_terms(text: str) -> set[str]:
    return {t for t in terms(text) if len(t) >= 3 and not t.isdigit()}
