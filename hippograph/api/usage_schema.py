"""GraphQL for evidence of use: ``used``, the client's report that memories served it.

Being returned by ``recall`` is not being used (see ``graph.recall.feedback``): only this
report, ``feedback`` and restatement reinforce a memory. ``UsageMutation`` is merged into the
main schema with ``strawberry.tools.merge_types``.
"""

from __future__ import annotations

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.types import Info

from hippograph.api.context import runtime
from hippograph.graph.recall import feedback


@strawberry.type
class UsedPayload:
    memories_touched: int = strawberry.field(
        description="Active memories of the namespace counted as used."
    )
    links_created: int
    links_reinforced: int


@strawberry.type
class UsageMutation:
    @strawberry.mutation(
        description=(
            "Report memories the client used (e.g. in one answer): each counts an access, "
            "which keeps it from fading and lifts its rank; memories used together are "
            "linked. Ids that are not active memories of the namespace are ignored."
        )
    )
    async def used(
        self, info: Info, namespace: str, memory_ids: list[strawberry.ID]
    ) -> UsedPayload | None:
        rt = runtime(info)
        effects = await run_in_threadpool(
            feedback.use, rt.store, namespace, [str(i) for i in memory_ids]
        )
        return UsedPayload(
            memories_touched=effects.memories_touched,
            links_created=effects.links_created,
            links_reinforced=effects.links_reinforced,
        )
