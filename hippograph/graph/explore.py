"""What the graph explorer reads: a memory's neighbourhood, a namespace's clusters, and where a
memory came from.

A neighbourhood is found breadth-first from one memory, one statement per hop
(``explore/hop``), over the edges the explorer draws: ``HAS_TAG``, ``IN_CLUSTER``,
``DERIVED_FROM``, ``RELATES_TO``, ``SUPERSEDES`` and ``CONTRADICTS``. Each node reached is of the
namespace (tags, clusters and episodes carry it as memories do); superseded and archived
memories only on request; every read is scoped as recall is (``validate.visible``: a caller sees
global memories, those of its project and those of its session, and walks through no other
memory). The walk stops at ``depth`` hops or ``limit`` nodes, then one
statement (``explore/edges``) reads every edge among the nodes found, so that two neighbours'
own link shows too. An id of another namespace is reported missing, like an unknown one.

A hub (a tag on more than HUB_DEGREE memories, a cluster of more than HUB_DEGREE) is shown, with
its count, but not walked through: its members are a list to page through (``memories`` by
tag), not a neighbourhood, and a hop from it read every one of its edges to keep FAN_OUT of them
(a speaker's tag holds about half of a conversation's memories).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hippograph.graph import memories, validate
from hippograph.graph.errors import InvalidInput, NotFound
from hippograph.graph.model import Episode, Memory, to_episode
from hippograph.graph.store.store import Row, Store

MAX_DEPTH = 3
MAX_NODES = 500
DEFAULT_NODES = 100
# Neighbours taken from one node per hop: a tag on thousands of memories must not flood a hop.
FAN_OUT = 50
# A tag or cluster with more members than this is shown but not walked through.
HUB_DEGREE = 1000
MAX_CLUSTERS = 1000
CLUSTER_MEMBERS = 10
MAX_PROVENANCE = 100
EDGE_TYPES = ("HAS_TAG", "IN_CLUSTER", "DERIVED_FROM", "RELATES_TO", "SUPERSEDES", "CONTRADICTS")
# The node kinds, by label; the property that identifies a node of each.
KINDS = {"Memory": ("memory", "id"), "Tag": ("tag", "name"), "Cluster": ("cluster", "id"),
         "Episode": ("episode", "uid")}  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class Node:
    """One node of a neighbourhood. ``key`` (kind:id) is unique in it and names edge ends;
    ``depth`` counts hops from the start memory. Exactly one of memory, tag, cluster and
    episode is set, the one of ``kind``."""

    key: str
    kind: str
    id: str
    label: str
    depth: int
    memory: Memory | None = None
    tag_count: int | None = None
    cluster_size: int | None = None
    episode: Episode | None = None


@dataclass(frozen=True, kw_only=True)
class Edge:
    source: str
    target: str
    type: str
    weight: float
    confidence: float
    kind: str | None  # RELATES_TO: why it exists (explicit, co_use, ...)
    resolved: bool | None  # CONTRADICTS: whether consolidation resolved it


@dataclass(frozen=True, kw_only=True)
class Neighbourhood:
    root: str
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    truncated: bool  # the walk stopped at ``limit`` nodes before ``depth`` hops


@dataclass(frozen=True, kw_only=True)
class Cluster:
    id: str
    label: str
    size: int
    updated_at: str | None
    members: tuple[str, ...]  # the most typical first


@dataclass(frozen=True, kw_only=True)
class Derivation:
    episode: Episode
    via: tuple[str, ...]  # the memory ids from the asked memory to the episode


def neighbourhood(
    store: Store,
    namespace: str,
    memory_id: str,
    *,
    depth: int = 1,
    include_superseded: bool = False,
    include_archived: bool = False,
    limit: int = DEFAULT_NODES,
    project: str | None = None,
    session_id: str | None = None,
) -> Neighbourhood:
    """The nodes within ``depth`` hops of ``memory_id`` (at most ``limit``) and their edges.

    depth: 1..MAX_DEPTH hops. include_superseded, include_archived: also walk through memories
    of those statuses (the start memory is shown whatever its status). limit: 1..MAX_NODES.
    """
    validate.namespace(namespace)
    memory_id = validate.memory_id(memory_id)
    _bounded("depth", depth, 1, MAX_DEPTH)
    _bounded("limit", limit, 1, MAX_NODES)
    visible = validate.visible(project, session_id)
    root = _root(store, namespace, memory_id, visible, field="id")
    statuses = ["active"]
    statuses += ["superseded"] if include_superseded else []
    statuses += ["archived"] if include_archived else []
    found: dict[str, tuple[int, Row]] = {root["eid"]: (0, root)}
    frontier = [root["eid"]]
    truncated = False
    for hop in range(1, depth + 1):
        rows = store.read(
            "explore/hop", namespace=namespace, frontier=frontier, statuses=statuses,
            fan_out=FAN_OUT, scopes=visible,
        )  # fmt: skip
        frontier = []
        for row in rows:
            if row["eid"] in found or _kind(row) is None:
                continue
            if len(found) >= limit:
                truncated = True
                break
            found[row["eid"]] = (hop, row)
            if not _hub(row):
                frontier.append(row["eid"])
        if truncated or not frontier:
            break
    return _assemble(store, namespace, root["node"]["id"], found, truncated=truncated)


def clusters(
    store: Store,
    namespace: str,
    first: int = 100,
    *,
    project: str | None = None,
    session_id: str | None = None,
) -> list[Cluster]:
    """The namespace's clusters with a member the caller sees, largest first, each with its
    CLUSTER_MEMBERS most typical such members."""
    validate.namespace(namespace)
    _bounded("first", first, 1, MAX_CLUSTERS)
    rows = store.read(
        "explore/clusters", namespace=namespace, first=first, members=CLUSTER_MEMBERS,
        scopes=validate.visible(project, session_id),
    )  # fmt: skip
    return [
        Cluster(
            id=r["id"],
            label=r["label"] or "",
            size=int(r["size"] or 0),
            updated_at=r["updated_at"],
            members=tuple(m for m in r["members"] or () if m),
        )  # fmt: skip
        for r in rows
    ]


def provenance(
    store: Store,
    namespace: str,
    memory_id: str,
    *,
    project: str | None = None,
    session_id: str | None = None,
) -> list[Derivation]:
    """The episodes ``memory_id`` was derived from (``DERIVED_FROM``, directly or through the
    memories it was derived from that the caller sees, up to 4 links), nearest first."""
    validate.namespace(namespace)
    memory_id = validate.memory_id(memory_id, "memoryId")
    visible = validate.visible(project, session_id)
    root = _root(store, namespace, memory_id, visible, field="memoryId")
    rows = store.read(
        "explore/provenance", namespace=namespace, eid=root["eid"], limit=MAX_PROVENANCE,
        scopes=visible,
    )  # fmt: skip
    return [Derivation(episode=to_episode(r["episode"]), via=tuple(r["via"])) for r in rows]


def _root(store: Store, namespace: str, memory_id: str, scopes: list[str], *, field: str) -> Row:
    """The start memory; one the caller does not see is missing, as one of another namespace."""
    rows = store.read("explore/root", namespace=namespace, id=memory_id, scopes=scopes)
    if not rows:
        raise NotFound("memory", memory_id, field=field)
    return rows[0]


def _bounded(field: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise InvalidInput(field, f"{value} is outside {low}..{high}", limit=high)


def _hub(row: Row) -> bool:
    """Whether ``row`` is a tag or cluster with more than HUB_DEGREE members."""
    node = row["node"]
    kind = _kind(row)
    members = node.get("count") if kind == KINDS["Tag"] else node.get("size")
    return kind in (KINDS["Tag"], KINDS["Cluster"]) and int(members or 0) > HUB_DEGREE


def _kind(row: Row) -> tuple[str, str] | None:
    for label in row["labels"]:
        if label in KINDS:
            return KINDS[label]
    return None


def _assemble(
    store: Store,
    namespace: str,
    root_id: str,
    found: dict[str, tuple[int, Row]],
    *,
    truncated: bool,
) -> Neighbourhood:
    keys: dict[str, str] = {}
    nodes: list[Node] = []
    memory_ids = [row["node"]["id"] for _, row in found.values() if _kind(row) == KINDS["Memory"]]
    records = {m.id: m for m in memories.get_many(store, namespace, memory_ids)}
    for eid, (depth, row) in found.items():
        node = _node(row, depth, records)
        if node is not None:
            keys[eid] = node.key
            nodes.append(node)
    rows = store.read("explore/edges", eids=list(keys))
    edges = [_edge(r, keys) for r in rows if r["source"] in keys and r["target"] in keys]
    edges.sort(key=lambda e: (e.type, e.source, e.target))
    return Neighbourhood(
        root=f"memory:{root_id}", nodes=tuple(nodes), edges=tuple(edges), truncated=truncated
    )


def _node(row: Row, depth: int, records: dict[str, Memory]) -> Node | None:
    kind, key_prop = _kind(row) or ("", "")
    props: dict[str, Any] = row["node"]
    ident = str(props.get(key_prop) or "")
    key = f"{kind}:{ident}"
    if kind == "memory":
        record = records.get(ident)
        if record is None:  # deleted between the walk and the read
            return None
        return Node(key=key, kind=kind, id=ident, label=_short(record.content), depth=depth,
                    memory=record)  # fmt: skip
    if kind == "tag":
        return Node(key=key, kind=kind, id=ident, label=ident, depth=depth,
                    tag_count=int(props.get("count") or 0))  # fmt: skip
    if kind == "cluster":
        return Node(key=key, kind=kind, id=ident, label=str(props.get("label") or ident),
                    depth=depth, cluster_size=int(props.get("size") or 0))  # fmt: skip
    episode = to_episode(props)
    label = f"{episode.speaker or episode.session_id} #{episode.turn_index}"
    return Node(key=key, kind=kind, id=ident, label=label, depth=depth, episode=episode)


def _edge(row: Row, keys: dict[str, str]) -> Edge:
    props: dict[str, Any] = row["props"] or {}
    resolved = props.get("resolved")
    return Edge(
        source=keys[row["source"]],
        target=keys[row["target"]],
        type=row["type"],
        weight=_number(props.get("weight")),
        confidence=_number(props.get("confidence")),
        kind=props.get("kind"),
        resolved=None if resolved is None else bool(resolved),
    )


def _number(value: object) -> float:
    return 1.0 if value is None else float(str(value))


def _short(text: str, chars: int = 48) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"
