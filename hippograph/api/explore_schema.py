"""GraphQL for the graph explorer (/explore): ``neighbourhood``, ``clusters`` and
``provenance`` (``graph.explore``). ``ExploreQuery`` is merged into the main schema with
``strawberry.tools.merge_types``."""

# Strawberry's field decorators are typed loosely when given arguments (as for the other
# *_schema modules, listed in pyproject.toml).
# mypy: disallow-untyped-decorators=False

from __future__ import annotations

from enum import Enum
from functools import partial
from typing import Annotated

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.types import Info

from hippograph.api.context import runtime
from hippograph.api.ingest_schema import Episode
from hippograph.api.inputs import Project, SessionId
from hippograph.api.types import Memory
from hippograph.graph import explore


@strawberry.enum
class NodeKind(Enum):
    MEMORY = "memory"
    TAG = "tag"
    CLUSTER = "cluster"
    EPISODE = "episode"


@strawberry.enum
class EdgeType(Enum):
    HAS_TAG = "HAS_TAG"
    IN_CLUSTER = "IN_CLUSTER"
    DERIVED_FROM = "DERIVED_FROM"
    RELATES_TO = "RELATES_TO"
    SUPERSEDES = "SUPERSEDES"
    CONTRADICTS = "CONTRADICTS"


@strawberry.type
class GraphNode:
    key: strawberry.ID = strawberry.field(description="kind:id, unique in the answer; edge ends.")
    kind: NodeKind
    id: str = strawberry.field(description="The memory or cluster id, tag name or episode uid.")
    label: str
    depth: int = strawberry.field(description="Hops from the start memory.")
    memory: Memory | None
    tag_count: int | None = strawberry.field(description="Memories carrying the tag.")
    cluster_size: int | None
    episode: Episode | None

    @classmethod
    def of(cls, n: explore.Node) -> GraphNode:
        return cls(
            key=strawberry.ID(n.key), kind=NodeKind(n.kind), id=n.id, label=n.label,
            depth=n.depth, memory=Memory.of(n.memory) if n.memory else None,
            tag_count=n.tag_count, cluster_size=n.cluster_size,
            episode=Episode.of(n.episode) if n.episode else None,
        )  # fmt: skip


@strawberry.type
class GraphEdge:
    source: strawberry.ID
    target: strawberry.ID
    type: EdgeType
    weight: float
    confidence: float
    kind: str | None = strawberry.field(description="RELATES_TO: why (explicit, co_use, ...).")
    resolved: bool | None = strawberry.field(description="CONTRADICTS: resolved yet.")


@strawberry.type
class Neighbourhood:
    root: strawberry.ID
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    truncated: bool = strawberry.field(description="The walk stopped at `limit` nodes.")


@strawberry.type
class ClusterInfo:
    id: strawberry.ID
    label: str
    size: int
    updated_at: str | None
    members: list[strawberry.ID] = strawberry.field(description="The most typical members.")


@strawberry.type
class Derivation:
    episode: Episode
    via: list[strawberry.ID] = strawberry.field(
        description="The memories from the asked one to the episode (DERIVED_FROM links)."
    )


Depth = Annotated[
    int, strawberry.argument(description=f"Hops from the memory, 1..{explore.MAX_DEPTH}.")
]
Limit = Annotated[
    int, strawberry.argument(description=f"At most this many nodes, 1..{explore.MAX_NODES}.")
]


@strawberry.type
class ExploreQuery:
    @strawberry.field(
        description="A memory's neighbourhood: memories, tags, clusters and episodes within "
        "`depth` hops over HAS_TAG, IN_CLUSTER, DERIVED_FROM, RELATES_TO, SUPERSEDES and "
        "CONTRADICTS, and every such edge among them. Superseded and archived memories only "
        "on request; scoped as recall is (global memories, project's and sessionId's): the "
        "walk goes through no other memory."
    )
    async def neighbourhood(
        self,
        info: Info,
        namespace: str,
        id: strawberry.ID,
        depth: Depth = 1,
        include_superseded: bool = False,
        include_archived: bool = False,
        limit: Limit = explore.DEFAULT_NODES,
        project: Project = None,
        session_id: SessionId = None,
    ) -> Neighbourhood:
        rt = runtime(info)

        def work() -> explore.Neighbourhood:
            return explore.neighbourhood(
                rt.store, namespace, str(id), depth=depth, limit=limit,
                include_superseded=include_superseded, include_archived=include_archived,
                project=project, session_id=session_id,
            )  # fmt: skip

        hood = await run_in_threadpool(work)
        return Neighbourhood(
            root=strawberry.ID(hood.root),
            nodes=[GraphNode.of(n) for n in hood.nodes],
            edges=[
                GraphEdge(
                    source=strawberry.ID(e.source),
                    target=strawberry.ID(e.target),
                    type=EdgeType(e.type),
                    weight=e.weight,
                    confidence=e.confidence,
                    kind=e.kind,
                    resolved=e.resolved,
                )  # fmt: skip
                for e in hood.edges
            ],
            truncated=hood.truncated,
        )

    @strawberry.field(
        description="A namespace's topic clusters (the cluster job's), largest first: those "
        "with a member the caller sees (scoped as recall is), with such members."
    )
    async def clusters(
        self,
        info: Info,
        namespace: str,
        first: int = 100,
        project: Project = None,
        session_id: SessionId = None,
    ) -> list[ClusterInfo]:
        rt = runtime(info)
        found = await run_in_threadpool(
            partial(explore.clusters, project=project, session_id=session_id),
            rt.store, namespace, first,
        )  # fmt: skip
        return [
            ClusterInfo(
                id=strawberry.ID(c.id),
                label=c.label,
                size=c.size,
                updated_at=c.updated_at,
                members=[strawberry.ID(m) for m in c.members],
            )  # fmt: skip
            for c in found
        ]

    @strawberry.field(
        description="The episodes a memory was derived from (DERIVED_FROM, through derived "
        "memories the caller sees too: scoped as recall is), nearest first."
    )
    async def provenance(
        self,
        info: Info,
        namespace: str,
        memory_id: strawberry.ID,
        project: Project = None,
        session_id: SessionId = None,
    ) -> list[Derivation]:
        rt = runtime(info)
        found = await run_in_threadpool(
            partial(explore.provenance, project=project, session_id=session_id),
            rt.store, namespace, str(memory_id),
        )  # fmt: skip
        return [
            Derivation(episode=Episode.of(d.episode), via=[strawberry.ID(v) for v in d.via])
            for d in found
        ]
