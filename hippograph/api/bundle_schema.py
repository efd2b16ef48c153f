"""GraphQL ``context``: the token-budgeted context bundle for a turn (``graph.recall.bundle``);
``observe`` and ``pending``: the same built in the background, ready at the next turn
(``graph.recall.nextturn``)."""

from __future__ import annotations

from enum import Enum
from functools import partial

import strawberry
from strawberry.types import Info

from hippograph.api.context import runtime
from hippograph.api.limits import by_get, charge_k
from hippograph.api.work import heavy
from hippograph.graph import validate
from hippograph.graph.errors import Overloaded
from hippograph.graph.recall import bundle, nextturn
from hippograph.graph.text import privacy

# Session ids are short identifiers a client makes up.
MAX_SESSION_ID = 256


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
        charge_k(info, k)
        rt = runtime(info)
        request = bundle.ContextRequest(
            context=context,
            budget=budget,
            format=format.value,
            session_id=session_id,
            project=project,
            k=k,
        )
        # Over GET (a link, an <img>) nothing is recorded: no gap, no returned counts.
        found = await heavy(
            info, partial(rt.context_bundle, record=not by_get(info)), namespace, request
        )
        return ContextBundle.of(found)

    @strawberry.field(
        description="The latest context bundle finished for a session in next-turn mode "
        "(see observe), with its age; null if none has finished yet."
    )
    def pending(self, info: Info, namespace: str, session_id: str) -> PendingContext | None:
        validate.namespace(namespace)
        session_id = validate.identifier(session_id, "sessionId", MAX_SESSION_ID)
        found = _next_turn(info).pending(namespace, session_id)
        return None if found is None else PendingContext.of(found)


@strawberry.type
class BundleMutation:
    @strawberry.mutation(
        description="Next-turn mode: hand over this turn's context and return at once; its "
        "context bundle is built in the background, to be read with pending at the next turn. "
        "A newer context of the session replaces one still waiting."
    )
    def observe(
        self,
        info: Info,
        namespace: str,
        session_id: str,
        context: str,
        budget: int = 1000,
        format: ContextFormat = ContextFormat.MARKDOWN,
        project: str | None = None,
        k: int = bundle.DEFAULT_CANDIDATES,
    ) -> Observation | None:
        charge_k(info, k)
        rt = runtime(info)
        validate.namespace(namespace)
        session_id = validate.identifier(session_id, "sessionId", MAX_SESSION_ID)
        request = bundle.ContextRequest(
            # Held until ``pending`` returns it: filtered like any stored text.
            context=privacy.apply(
                validate.content(context, rt.limits, "context"),
                field="context",
                mode=rt.settings.write.privacy_mode,
            ),
            budget=bundle.valid_budget(budget),
            format=validate.choice(format.value, bundle.FORMATS, "format"),
            session_id=session_id,
            project=project,
            k=validate.top_k(k, rt.limits),
        )
        seen = _next_turn(info).observe(namespace, request)
        return Observation(accepted=seen.accepted, replaced=seen.replaced, waiting=seen.waiting)


@strawberry.type
class Observation:
    accepted: bool
    replaced: bool = strawberry.field(description="An older context of the session was dropped.")
    waiting: int = strawberry.field(description="Sessions waiting, this one included.")


@strawberry.type
class PendingContext:
    context: str
    observed_at: str
    finished_at: str
    age_ms: float = strawberry.field(description="Milliseconds since it was finished.")
    bundle: ContextBundle | None
    error: str | None = strawberry.field(description="Why building it failed, if it did.")

    @classmethod
    def of(cls, p: nextturn.Pending) -> PendingContext:
        return cls(
            context=p.context,
            observed_at=p.observed_at,
            finished_at=p.finished_at,
            age_ms=round(p.age_s() * 1000, 1),
            bundle=ContextBundle.of(p.bundle) if p.bundle is not None else None,
            error=p.error,
        )


def _next_turn(info: Info) -> nextturn.NextTurn:
    rt = runtime(info)
    if rt.next_turn is None:
        raise Overloaded("next-turn mode", "not offered by this process")
    return rt.next_turn
