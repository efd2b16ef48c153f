"""GraphQL ``profile``: a namespace's materialized profile (``graph.upkeep.profile``): who the
user is and what they want, each entry with its source memories, and skill proposals."""

from __future__ import annotations

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.types import Info

from hippograph.api.context import runtime
from hippograph.graph.upkeep import profile


@strawberry.type
class ProfileEntry:
    kind: str = strawberry.field(description="identity, constraint or preference.")
    attribute: str | None = strawberry.field(
        description="For identity: name, role, workplace, place, origin, age, relation, pet."
    )
    subject: str | None = strawberry.field(description="Who it is about, as written.")
    statement: str
    sources: list[strawberry.ID] = strawberry.field(description="Its memories, its own first.")


@strawberry.type
class SkillProposal:
    name: str
    steps: list[str]
    source: strawberry.ID
    uses: int
    confidence: float


@strawberry.type
class Profile:
    version: int = strawberry.field(description="0 before the profile job first ran.")
    updated_at: str | None
    entries: list[ProfileEntry]
    skills: list[SkillProposal]


@strawberry.type
class ProfileQuery:
    @strawberry.field(
        description="Who the user is and what they want (identity facts, constraints, "
        "preferences), and skill proposals from procedures that worked; materialized by the "
        "profile job, entries whose memories are no longer active left out."
    )
    async def profile(self, info: Info, namespace: str) -> Profile:
        rt = runtime(info)
        found = await run_in_threadpool(profile.get, rt.store, namespace)
        return Profile(
            version=found.version,
            updated_at=found.updated_at,
            entries=[
                ProfileEntry(
                    kind=e.kind,
                    attribute=e.attribute,
                    subject=e.subject,
                    statement=e.statement,
                    sources=[strawberry.ID(i) for i in e.sources],
                )
                for e in found.entries
            ],
            skills=[
                SkillProposal(
                    name=s.name,
                    steps=list(s.steps),
                    source=strawberry.ID(s.source),
                    uses=s.uses,
                    confidence=s.confidence,
                )
                for s in found.skills
            ],
        )
