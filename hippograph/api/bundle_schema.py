"""GraphQL ``context``: the token-budgeted context bundle for a turn (``graph.recall.bundle``)."""

from __future__ import annotations

from enum import Enum

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.types import Info

from hippograph.api.context import runtime
from hippograph.graph.recall import bundle


@strawberry.enum
class ContextFormat(Enum):
    MARKDOWN = "markdown"
    JSON = "json"


@strawberry.type
class ContextItem:
    ref: int = strawberry.field(description="The [n] that marks it in the text.")
    id: strawberry.ID
    section: str = strawberry.field(description="'rules' or the memory's type.")
    score: float
    truncated: bool


@strawberry.type
class ContextBundle:
    text: str = strawberry.field(description="Ready to paste; empty when nothing applies.")
    tokens: int
    budget: int
    format: ContextFormat
    exact_tokens: bool = strawberry.field(
        description="Counted with the embedding model's tokenizer (else ceil(chars / 4))."
    )
    items: list[ContextItem]
    dropped: int = strawberry.field(description="Recalled items left out to fit the budget.")
    gap: bool = strawberry.field(description="Nothing relevant was found for this context.")

    @classmethod
    def of(cls, b: bundle.ContextBundle) -> ContextBundle:
        return cls(
            text=b.text,
            tokens=b.tokens,
            budget=b.budget,
            format=ContextFormat(b.format),
            exact_tokens=b.exact_tokens,
            items=[
                ContextItem(
                    ref=i.ref,
                    id=strawberry.ID(i.id),
                    section=i.section,
                    score=i.score,
                    truncated=i.truncated,
                )
                for i in b.items
            ],
            dropped=b.dropped,
            gap=b.gap,
        )


@strawberry.type
class BundleQuery:
    @strawberry.field(
        description="The memories relevant to a context as prompt text within a token budget: "
        "triggered rules first, then recalled memories grouped by kind, the lowest-ranked "
        "left out first."
    )
    async def context(
        self,
        info: Info,
        namespace: str,
        context: str,
        budget: int = 1000,
        format: ContextFormat = ContextFormat.MARKDOWN,
        session_id: str | None = None,
        project: str | None = None,
        k: int = bundle.DEFAULT_CANDIDATES,
    ) -> ContextBundle:
        rt = runtime(info)
        request = bundle.ContextRequest(
            context=context,
            budget=budget,
            format=format.value,
            session_id=session_id,
            project=project,
            k=k,
        )
        found = await run_in_threadpool(
            bundle.build, rt.store, rt.embedder, namespace, request, rt.cascade, limits=rt.limits
        )
        rt.after_recall(namespace, context, found.result)
        return ContextBundle.of(found)
