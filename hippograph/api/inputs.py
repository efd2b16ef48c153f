"""GraphQL input types: what clients send, turned into domain records by ``to_domain``."""

from __future__ import annotations

from typing import Annotated

import strawberry

from hippograph.api.types import MemoryType, Provenance, Scope, Status
from hippograph.graph import model

# The caller's place, on every read of memories: it sees what recall sees (graph.validate.visible).
Project = Annotated[
    str | None,
    strawberry.argument(
        description="The caller's project: a read sees global memories, this project's and "
        "sessionId's, as recall does (a memory of another project or session is not there)."
    ),
]
SessionId = Annotated[
    str | None,
    strawberry.argument(description="The caller's session (see project): its memories are seen."),
]


@strawberry.input
class SourceInput:
    session_id: str | None = None
    messages: str | None = None
    file_paths: list[str] = strawberry.field(default_factory=list)
    snippet: str | None = None


@strawberry.input
class MemoryInput:
    content: str
    memory_type: MemoryType = MemoryType.FACT
    scope: Scope = Scope.GLOBAL
    project: str | None = None
    session_id: str | None = None
    provenance: Provenance = Provenance.USER_STATED
    source: SourceInput | None = None
    confidence: float | None = None
    trust_score: float = 1.0
    tags: list[str] = strawberry.field(default_factory=list)
    trigger_patterns: list[str] = strawberry.field(default_factory=list)
    steps: list[str] = strawberry.field(default_factory=list)
    prerequisites: list[str] = strawberry.field(default_factory=list)
    warnings: list[str] = strawberry.field(default_factory=list)
    occurred_at: str | None = None

    def to_domain(self) -> model.NewMemory:
        src = self.source or SourceInput()
        return model.NewMemory(
            content=self.content,
            memory_type=self.memory_type.value,
            scope=self.scope.value,
            project=self.project,
            session_id=self.session_id,
            provenance=self.provenance.value,
            source=model.Source(
                session_id=src.session_id,
                messages=src.messages,
                file_paths=tuple(src.file_paths),
                snippet=src.snippet,
            ),
            confidence=self.confidence,
            trust_score=self.trust_score,
            tags=tuple(self.tags),
            trigger_patterns=tuple(self.trigger_patterns),
            steps=tuple(self.steps),
            prerequisites=tuple(self.prerequisites),
            warnings=tuple(self.warnings),
            occurred_at=self.occurred_at,
        )


@strawberry.input
class MemoryFilter:
    memory_type: MemoryType | None = None
    scope: Scope | None = None
    tag: str | None = None
    status: Status | None = Status.ACTIVE
    text: str | None = None
    project: str | None = None
    session_id: str | None = None

    def to_domain(self) -> model.MemoryFilter:
        return model.MemoryFilter(
            memory_type=self.memory_type.value if self.memory_type else None,
            scope=self.scope.value if self.scope else None,
            tag=self.tag,
            status=self.status.value if self.status else None,
            text=self.text,
            project=self.project,
            session_id=self.session_id,
        )
