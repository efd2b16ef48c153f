"""GraphQL for the ledger: ``sessions`` and ``conversation`` (the episode log read as
conversations), and erasure (``eraseTurn``, ``clearSession``, ``erase``)."""

from __future__ import annotations

from enum import Enum

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.types import Info

from hippograph.api.context import runtime
from hippograph.api.ingest_schema import Episode
from hippograph.api.work import heavy
from hippograph.graph import sessions
from hippograph.graph.write import erasure


@strawberry.enum
class Direction(Enum):
    FORWARD = "forward"
    BACKWARD = "backward"


@strawberry.type
class Session:
    session_id: str
    turns: int
    first_at: str = strawberry.field(description="when its first turn was recorded")
    last_at: str = strawberry.field(description="when its last turn was recorded")
    participants: list[str] = strawberry.field(description="speakers, or roles when unnamed")
    first_turn_index: int
    last_turn_index: int


@strawberry.type
class SessionPage:
    items: list[Session]
    next_cursor: str | None


@strawberry.type
class ConversationPage:
    turns: list[Episode] = strawberry.field(description="in the order walked")
    next_cursor: str | None = strawberry.field(description="pass as after; null at the end")


@strawberry.type
class ErasurePayload:
    turns: int
    runs: int = strawberry.field(description="agent runs, with their steps and tool calls")
    memories: int
    kept: int = strawberry.field(
        description="memories of erased turns or runs kept: another surviving turn or run, "
        "or a remember, states them too"
    )
    decisions: int
    remember_items: int
    edits: int
    gaps: int
    tags: int
    entities: int = strawberry.field(description="entities no memory mentions any longer, deleted")
    words: int
    compacted: bool = strawberry.field(
        description="the embedded engine's word indexes were rebuilt (docs/operations.md)"
    )
    dry_run: bool
    turn_ids: list[str]
    memory_ids: list[strawberry.ID]
    run_ids: list[strawberry.ID]

    @classmethod
    def of(cls, e: erasure.Erasure) -> ErasurePayload:
        return cls(
            turns=e.turns, runs=e.runs, memories=e.memories, kept=e.kept, decisions=e.decisions,
            remember_items=e.remember_items, edits=e.edits, gaps=e.gaps, tags=e.tags,
            entities=e.entities, words=e.words, compacted=e.compacted, dry_run=e.dry_run,
            turn_ids=list(e.turn_ids),
            memory_ids=[strawberry.ID(i) for i in e.memory_ids],
            run_ids=[strawberry.ID(i) for i in e.run_ids],
        )  # fmt: skip


@strawberry.type
class LedgerQuery:
    @strawberry.field(description="The namespace's sessions, most recently active first.")
    async def sessions(
        self, info: Info, namespace: str, first: int = 50, after: str | None = None
    ) -> SessionPage:
        rt = runtime(info)
        page = await run_in_threadpool(
            lambda: sessions.sessions(rt.store, namespace, first=first, after=after)
        )
        return SessionPage(
            items=[
                Session(
                    session_id=s.session_id,
                    turns=s.turns,
                    first_at=s.first_at,
                    last_at=s.last_at,
                    participants=list(s.participants),
                    first_turn_index=s.first_index,
                    last_turn_index=s.last_index,
                )  # fmt: skip
                for s in page.items
            ],
            next_cursor=page.next_cursor,
        )

    @strawberry.field(
        description="One session's turns, a page at a time: FORWARD from the first (oldest "
        "first) or BACKWARD from the last (newest first)."
    )
    async def conversation(
        self,
        info: Info,
        namespace: str,
        session_id: str,
        first: int = 50,
        after: str | None = None,
        direction: Direction = Direction.FORWARD,
    ) -> ConversationPage:
        rt = runtime(info)
        page = await run_in_threadpool(
            lambda: sessions.conversation(
                rt.store,
                namespace,
                session_id,
                first=first,
                after=after,
                direction=direction.value,
            )  # fmt: skip
        )
        return ConversationPage(
            turns=[Episode.of(e) for e in page.turns], next_cursor=page.next_cursor
        )


@strawberry.type
class LedgerMutation:
    @strawberry.mutation(
        description="Erase one turn by its id, with the memories derived from it (unless "
        "another surviving source confirms them) and their traces (see erase)."
    )
    async def erase_turn(self, info: Info, namespace: str, id: str) -> ErasurePayload | None:
        rt = runtime(info)
        done = await heavy(info, lambda: erasure.erase(rt.store, namespace, turn_ids=[id]))
        return ErasurePayload.of(done)

    @strawberry.mutation(
        description="Erase every turn of a session, with what was derived from them."
    )
    async def clear_session(
        self, info: Info, namespace: str, session_id: str
    ) -> ErasurePayload | None:
        rt = runtime(info)
        done = await heavy(info, lambda: erasure.erase(rt.store, namespace, session_id=session_id))
        return ErasurePayload.of(done)

    @strawberry.mutation(
        description="Erase memories (by id, or every one containing text), the turns they "
        "came from, turns containing text, and what was derived from them: decision texts, "
        "remember log items, edits, gaps, profile entries, tags left empty, vocabulary words. "
        "Tombstones keep them from coming back. dryRun says what would go."
    )
    async def erase(
        self,
        info: Info,
        namespace: str,
        memory_ids: list[strawberry.ID] | None = None,
        turn_ids: list[str] | None = None,
        text: str | None = None,
        dry_run: bool = False,
    ) -> ErasurePayload | None:
        rt = runtime(info)
        done = await heavy(
            info,
            lambda: erasure.erase(
                rt.store,
                namespace,
                memory_ids=[str(i) for i in memory_ids or ()],
                turn_ids=list(turn_ids or ()),
                text=text,
                dry_run=dry_run,
            ),  # fmt: skip
        )
        return ErasurePayload.of(done)
