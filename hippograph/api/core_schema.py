"""GraphQL ``core`` and ``coreChanges``: a namespace's core block (``graph.upkeep.core``), the
few memories kept always in view, and how it changed."""

from __future__ import annotations

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.types import Info

from hippograph.api.context import runtime
from hippograph.api.types import Memory
from hippograph.graph.upkeep import core


@strawberry.type
class CoreBlock:
    version: int = strawberry.field(description="0 before the core job first ran.")
    updated_at: str | None
    decider: str | None = strawberry.field(description="'rule', 'llm' or 'rule (llm failed)'.")
    memories: list[Memory]


@strawberry.type
class CoreChange:
    version: int
    at: str
    decider: str
    added: list[strawberry.ID]
    removed: list[strawberry.ID]
    reason: str


@strawberry.type
class CoreQuery:
    @strawberry.field(
        description="The namespace's core block: memories always in view, promoted by evidence "
        "(recomputed by the core job)."
    )
    async def core(self, info: Info, namespace: str) -> CoreBlock:
        rt = runtime(info)
        block = await run_in_threadpool(core.get, rt.store, namespace)
        return CoreBlock(
            version=block.version,
            updated_at=block.updated_at,
            decider=block.decider,
            memories=[Memory.of(m) for m in block.memories],
        )

    @strawberry.field(description="How the core block changed, newest first.")
    async def core_changes(self, info: Info, namespace: str, first: int = 20) -> list[CoreChange]:
        rt = runtime(info)
        found = await run_in_threadpool(core.changes, rt.store, namespace, first)
        return [
            CoreChange(
                version=c.version,
                at=c.at,
                decider=c.decider,
                added=[strawberry.ID(i) for i in c.added],
                removed=[strawberry.ID(i) for i in c.removed],
                reason=c.reason,
            )
            for c in found
        ]
