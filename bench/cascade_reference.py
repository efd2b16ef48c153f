"""Reference implementation of the retrieval cascade, in memory, with numpy only.

It is the executable specification for ``graph/retrieval.py``: the same steps, the same
constants, on columnar arrays instead of Cypher. For one namespace and one query:

0. Focus.  Speakers of the namespace that the query names are removed from the text that is
   embedded and full-text searched ("What martial arts has John done?" -> "What martial arts
   has done?"); if exactly one is named it becomes a speaker cue for step 5 (:func:`focus`).
1. Relevance.  ``rel = alpha * cos(q, m) + (1 - alpha) * ft(m) / max ft``, ``ft`` the
   full-text (BM25) score, 0 for a memory that is not among the full-text hits.
2. Pseudo-relevance feedback.  ``q' = normalise(q + prf_weight * mean(embeddings of the
   prf_depth memories with the highest rel))``; cosines, and with them ``rel``, are recomputed
   with ``q'``; the full-text part is kept.  The vector seeds are chosen by ``cos(q', m)``
   among the vector top of ``q`` and the full-text hits (the hits at hand re-ranked), or
   among all memories if ``prf_search`` (a second vector search, with ``q'``).
3. Seeds.  Vector top ``vector_seeds`` with ``cos >= min_seed_cosine``, plus the first
   ``fulltext_seeds`` full-text hits.  A seed's activation is its ``rel``.
4. Expansion.  Breadth first to ``depth`` hops over memory-to-memory edges (a path through a
   Tag or a Cluster node counts as one hop).  Along an edge passes
   ``source activation * edge weight * hop_decay``; a memory keeps the largest amount it
   receives and passes that on.  Each memory uses at most ``fan_out`` edges, strongest first.
5. Ranking of seeds and expanded memories together, each re-scored with its own ``rel``:
   ``score = (rel + activation_weight * received + speaker_weight * [memory's speaker is the
   one speaker the query names] + time_weight * [memory's time inside a date the query names]
   + recency_weight * 0.5 ** (age / half-life) + importance_weight * importance) * confidence``
   where ``received`` is the activation a memory got from *other* memories.

Edges (:func:`build_graph`), memory to memory, the strongest kept when several link a pair:
``NEXT`` (RELATES_TO between turns ``d <= adjacent_span`` apart in one session, weight
``adjacent_weight / d``); ``HAS_TAG`` (memory - tag - memory, weight
``tag_weight * log(n / degree) / log(n)``, only through tags of degree ``<= max_tag_degree``);
``IN_CLUSTER`` (memory - cluster - memory, ``cluster_weight``, clusters of size
``<= max_cluster_size``); ``SUPERSEDES`` (``supersedes_weight``, both ways, given explicitly).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np

from hippograph.graph.recall import cues

# -- inputs -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Memories:
    """The memories of one namespace, column by column (row i is memory i)."""

    ids: tuple[str, ...]
    texts: tuple[str, ...]
    embeddings: np.ndarray  # (n, d), L2-normalised
    session: np.ndarray  # int, the conversation/session a memory came from
    turn: np.ndarray  # int, position inside the session
    time: tuple[datetime, ...]
    speaker: tuple[str, ...]
    confidence: np.ndarray = field(default_factory=lambda: np.ones(0))
    importance: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def __post_init__(self) -> None:
        n = len(self.ids)
        if len(self.confidence) == 0:
            object.__setattr__(self, "confidence", np.ones(n))
        if len(self.importance) == 0:
            object.__setattr__(self, "importance", np.zeros(n))

    def __len__(self) -> int:
        return len(self.ids)


@dataclass(frozen=True, kw_only=True)
class CascadeConfig:
    """Defaults are the recommended design (bench/research_locomo.py RECOMMENDED)."""

    # query focus: search without the speakers the query names (see focus())
    focus_speakers: bool = True
    # relevance and seeds
    fusion: str = "weighted"  # or "rrf": 1/(60 + vector rank) + 1/(60 + full-text rank)
    alpha: float = 0.8
    vector_seeds: int = 10
    min_seed_cosine: float = 0.4
    fulltext_seeds: int = 10
    prf_weight: float = 0.3
    prf_depth: int = 3
    prf_search: bool = False
    # edges
    adjacent_span: int = 1
    adjacent_weight: float = 1.0
    tag_weight: float = 0.8
    max_tag_degree: int = 10
    cluster_weight: float = 0.6
    max_cluster_size: int = 20
    supersedes_weight: float = 0.9
    # expansion
    depth: int = 2
    hop_decay: float = 0.7
    fan_out: int = 10
    # ranking
    rescore_expanded: bool = True  # False: an expanded memory has no relevance of its own
    activation_weight: float = 0.6
    speaker_weight: float = 0.3
    time_weight: float = 0.1
    time_slack_days: int = 31
    recency_weight: float = 0.0
    recency_half_life_days: float = 30.0
    importance_weight: float = 0.0


@dataclass(frozen=True)
class Graph:
    """Memory-to-memory edges, per node strongest first: ``edges[i] = [(j, weight, kind)]``."""

    edges: tuple[tuple[tuple[int, float, str], ...], ...]

    def kinds(self) -> Counter[str]:
        return Counter(kind for node in self.edges for _, _, kind in node)


@dataclass(frozen=True)
class Hit:
    index: int
    score: float
    relevance: float
    activation: float


# -- tagging ------------------------------------------------------------------------------

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    s t d ll m re ve don didn doesn isn wasn""".split()  # noqa: SIM905 - reads as prose
)
# Conversational filler that is long enough to pass as a keyword but links nothing.
FILLER = frozenset(
    """hey thanks thank really great glad good awesome amazing wow yeah sounds sound like also
    much well love know think feel feeling sure definitely totally always never something
    anything everything things thing going doing lately cool nice keep make made time image
    photo picture""".split()  # noqa: SIM905 - reads as prose
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")


def _stem(word: str) -> str:
    """Crude plural folding so that 'paintings' and 'painting' share a tag."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def tag(text: str, speaker: str) -> frozenset[str]:
    """Deterministic offline tags: ``speaker:<name>``, capitalised words, keywords.

    Capitalised words that open a sentence are kept only if they also appear capitalised
    elsewhere; keywords are non-stopword, non-filler words of 4+ letters, plural-folded.
    """
    tags = {f"speaker:{speaker.lower()}"}
    body = text.split(": ", 1)[1] if text.startswith(f"{speaker}: ") else text
    for sentence in re.split(r"(?<=[.!?])\s+|\[image:", body):
        words = _WORD.findall(sentence)
        for pos, word in enumerate(words):
            lower = word.lower().strip("'-")
            if lower in STOPWORDS or lower in FILLER:
                continue
            if word[0].isupper() and pos > 0:
                tags.add(f"entity:{lower}")
            elif len(lower) >= 4:
                tags.add(f"kw:{_stem(lower)}")
    return frozenset(tags)


Link = Callable[[int, int, float, str], None]  # (from, to, weight, kind)

# -- graph --------------------------------------------------------------------------------


def build_graph(
    memories: Memories,
    config: CascadeConfig,
    *,
    tags: Sequence[Iterable[str]] | None = None,
    clusters: np.ndarray | None = None,
    supersedes: Iterable[tuple[int, int]] = (),
) -> Graph:
    """Edges of one namespace. ``clusters[i]`` is memory i's cluster label, -1 for noise."""
    n = len(memories)
    best: list[dict[int, tuple[float, str]]] = [{} for _ in range(n)]

    def link(i: int, j: int, weight: float, kind: str) -> None:
        if i != j and weight > 0 and weight > best[i].get(j, (0.0, ""))[0]:
            best[i][j] = (weight, kind)

    _adjacency(memories, config, link)
    if tags is not None and config.tag_weight > 0:
        _via_groups(n, _tag_groups(tags, config.max_tag_degree), config.tag_weight, "HAS_TAG", link)
    if clusters is not None and config.cluster_weight > 0:
        groups = _cluster_groups(clusters, config.max_cluster_size, config.cluster_weight)
        _via_groups(n, groups, 1.0, "IN_CLUSTER", link)
    for new, old in supersedes:
        link(new, old, config.supersedes_weight, "SUPERSEDES")
        link(old, new, config.supersedes_weight, "SUPERSEDES")
    edges = tuple(
        tuple((j, w, kind) for j, (w, kind) in sorted(node.items(), key=lambda e: -e[1][0]))
        for node in best
    )
    return Graph(edges)


def _adjacency(memories: Memories, config: CascadeConfig, link: Link) -> None:
    order = np.lexsort((memories.turn, memories.session))
    for pos, i in enumerate(order):
        for dist in range(1, config.adjacent_span + 1):
            if pos + dist >= len(order):
                break
            j = order[pos + dist]
            if memories.session[j] != memories.session[i]:
                break
            weight = config.adjacent_weight / dist
            link(int(i), int(j), weight, "NEXT")
            link(int(j), int(i), weight, "NEXT")


def _tag_groups(tags: Sequence[Iterable[str]], max_degree: int) -> list[tuple[list[int], float]]:
    """Members of each bridging tag with its weight factor idf / log(n)."""
    members: dict[str, list[int]] = defaultdict(list)
    for i, memory_tags in enumerate(tags):
        for t in memory_tags:
            members[t].append(i)
    n = len(tags)
    return [
        (idx, math.log(n / len(idx)) / math.log(n))
        for idx in members.values()
        if 2 <= len(idx) <= max_degree
    ]


def _cluster_groups(
    labels: np.ndarray, max_size: int, weight: float
) -> list[tuple[list[int], float]]:
    groups = []
    for label in set(labels.tolist()) - {-1}:
        idx = np.flatnonzero(labels == label).tolist()
        if 2 <= len(idx) <= max_size:
            groups.append((idx, weight))
    return groups


def _via_groups(
    n: int, groups: list[tuple[list[int], float]], weight: float, kind: str, link: Link
) -> None:
    for idx, factor in groups:
        for i in idx:
            for j in idx:
                link(i, j, weight * factor, kind)


# -- query cues ---------------------------------------------------------------------------

# The cue parsers are the production ones, so the reference and the service agree.
date_windows = cues.date_windows
focus = cues.focus
named_speakers = cues.named_speakers


def time_match(memories: Memories, windows: list[tuple[datetime, datetime]]) -> np.ndarray:
    if not windows:
        return np.zeros(len(memories))
    index = cues.WindowIndex(windows)
    aware = [t if t.tzinfo else t.replace(tzinfo=UTC) for t in memories.time]
    return np.array([t in index for t in aware], dtype=np.float64)


# -- retrieval ----------------------------------------------------------------------------


def relevance(
    memories: Memories, query_vec: np.ndarray, fulltext: np.ndarray, config: CascadeConfig
) -> tuple[np.ndarray, np.ndarray]:
    """Relevance of every memory, and its cosine to the query."""
    cos = memories.embeddings @ query_vec
    if config.fusion == "rrf":
        return _rrf(cos, fulltext), cos
    top = fulltext.max() if len(fulltext) else 0.0
    ft = fulltext / top if top > 0 else fulltext
    return config.alpha * cos + (1 - config.alpha) * ft, cos


def _rrf(cos: np.ndarray, fulltext: np.ndarray, k: int = 60) -> np.ndarray:
    """RRF scaled to [0, 1] (1 = first in both lists) so the other weights keep their scale."""
    fused = np.zeros(len(cos))
    fused[np.argsort(-cos, kind="stable")] += 1 / (k + np.arange(1, len(cos) + 1))
    hits = np.flatnonzero(fulltext > 0)
    fused[hits[np.argsort(-fulltext[hits], kind="stable")]] += 1 / (k + np.arange(1, len(hits) + 1))
    return fused * (k + 1) / 2


@dataclass(frozen=True)
class Query:
    """One query, prepared: ``vector`` and ``fulltext_hits`` come from the *focused* text.

    ``fulltext_hits`` are the full-text index's hits as ``(memory index, score)``, best first;
    ``speakers`` are the namespace's speakers the query names (see :func:`focus`).
    """

    text: str
    vector: np.ndarray  # L2-normalised embedding of the focused text
    fulltext_hits: Sequence[tuple[int, float]]
    speakers: frozenset[str] = frozenset()


def retrieve(
    memories: Memories,
    graph: Graph,
    query: Query,
    config: CascadeConfig,
    *,
    k: int = 10,
    now: datetime | None = None,
) -> list[Hit]:
    """The ``k`` best memories for ``query``, best first."""
    n = len(memories)
    fulltext = np.zeros(n)
    for i, score in query.fulltext_hits:
        fulltext[i] = score
    rel, cos = relevance(memories, query.vector, fulltext, config)
    seed_cos = cos
    if config.prf_weight > 0:
        feedback = memories.embeddings[np.argsort(-rel, kind="stable")[: config.prf_depth]]
        expanded = query.vector + config.prf_weight * feedback.mean(axis=0)
        hits = [*np.argsort(-cos, kind="stable")[: config.vector_seeds], *fulltext.nonzero()[0]]
        rel, cos = relevance(memories, expanded / np.linalg.norm(expanded), fulltext, config)
        seed_cos = cos
        if not config.prf_search:  # the hits at hand re-ranked, nothing else
            seed_cos = np.full(n, -np.inf)
            seed_cos[hits] = cos[hits]

    seeds = _seeds(seed_cos, query.fulltext_hits, config)
    received = _spread(graph, {i: float(rel[i]) for i in seeds}, config)
    candidates = np.array(sorted(set(seeds) | set(received)), dtype=np.int64)

    if not config.rescore_expanded:
        rel = np.where(np.isin(np.arange(n), seeds), rel, 0.0)
    bonus = _bonus(memories, query, config, now)
    act = np.array([received.get(int(i), 0.0) for i in candidates])
    score = rel[candidates] + config.activation_weight * act + bonus[candidates]
    score *= memories.confidence[candidates]
    order = np.argsort(-score, kind="stable")[:k]
    return [
        Hit(int(candidates[o]), float(score[o]), float(rel[candidates[o]]), float(act[o]))
        for o in order
    ]


def _bonus(
    memories: Memories, query: Query, config: CascadeConfig, now: datetime | None
) -> np.ndarray:
    """Query cues and memory priors: speaker, date, recency, importance."""
    bonus = np.zeros(len(memories))
    if config.speaker_weight > 0 and len(query.speakers) == 1:
        said = np.array([s in query.speakers for s in memories.speaker], dtype=np.float64)
        bonus += config.speaker_weight * said
    if config.time_weight > 0:
        windows = date_windows(query.text, config.time_slack_days)
        bonus += config.time_weight * time_match(memories, windows)
    if config.recency_weight > 0:
        now = now or max(memories.time)
        age = np.array([(now - t).total_seconds() / 86400 for t in memories.time])
        bonus += config.recency_weight * 0.5 ** (age / config.recency_half_life_days)
    return bonus + config.importance_weight * memories.importance


def _seeds(
    cos: np.ndarray, fulltext_hits: Sequence[tuple[int, float]], config: CascadeConfig
) -> list[int]:
    by_vector = np.argsort(-cos, kind="stable")[: config.vector_seeds]
    seeds = [int(i) for i in by_vector if cos[i] >= config.min_seed_cosine]
    seeds += [i for i, score in fulltext_hits[: config.fulltext_seeds] if score > 0]
    return list(dict.fromkeys(seeds))


def _spread(graph: Graph, seeds: dict[int, float], config: CascadeConfig) -> dict[int, float]:
    """Breadth-first spreading activation; returns what each node received from others."""
    source = dict(seeds)
    received: dict[int, float] = {}
    frontier = list(seeds)
    for _ in range(config.depth):
        touched: set[int] = set()
        for u in frontier:
            for v, weight, _kind in graph.edges[u][: config.fan_out]:
                a = source[u] * weight * config.hop_decay
                if a > received.get(v, 0.0):
                    received[v] = a
                    if a > source.get(v, 0.0):
                        source[v] = a
                        touched.add(v)
        frontier = sorted(touched)
    return received
