"""GraphQL for the write path: ``ingest``, ``consolidate``, ``rebuild``, ``history``,
``episodes``. Plain Strawberry types, merged into the main schema with
``strawberry.tools.merge_types``."""

from __future__ import annotations

from typing import cast

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.scalars import JSON
from strawberry.types import Info

from hippograph.api.context import runtime
from hippograph.api.work import heavy
from hippograph.graph import history as memory_history
from hippograph.graph import model
from hippograph.graph.upkeep.consolidation_model import ConsolidationReport as Report
from hippograph.graph.write import episodes as episode_log
from hippograph.jobs.consolidate import consolidate_now, rebuild_now, write_tools


@strawberry.input(description="A call the message asks a tool to make.")
class ToolCallInput:
    id: str
    name: str
    arguments: str = strawberry.field(default="", description="JSON text, kept as sent")


@strawberry.input(description="What a tool answered to a call.")
class ToolResultInput:
    call_id: str
    content: str = ""
    status: str = strawberry.field(default="ok", description="ok or error")


@strawberry.input(description="One message as the platform sent it.")
class TurnInput:
    session_id: str
    text: str = strawberry.field(
        default="", description="kept as sent; may be empty when tool calls or results are given"
    )
    turn_index: int | None = strawberry.field(
        default=None, description="absent: appended after the session's last turn"
    )
    speaker: str | None = None
    role: str | None = strawberry.field(default=None, description="user, assistant, system or tool")
    timestamp: str | None = strawberry.field(default=None, description="ISO-8601, when said")
    file_paths: list[str] = strawberry.field(default_factory=list)
    tool_calls: list[ToolCallInput] = strawberry.field(default_factory=list)
    tool_results: list[ToolResultInput] = strawberry.field(default_factory=list)
    metadata: JSON | None = strawberry.field(
        default=None, description="a JSON object of at most 16 KiB (platform ids, channel...)"
    )
    message_id: str | None = strawberry.field(
        default=None, description="the client's id of the message: sent again, it is a duplicate"
    )

    def to_domain(self) -> episode_log.NewTurn:
        return episode_log.NewTurn(
            session_id=self.session_id,
            turn_index=self.turn_index,
            text=self.text,
            speaker=self.speaker,
            role=self.role,
            timestamp=self.timestamp,
            file_paths=tuple(self.file_paths),
            tool_calls=tuple(
                model.ToolCall(id=c.id, name=c.name, arguments=c.arguments) for c in self.tool_calls
            ),
            tool_results=tuple(
                model.ToolResult(call_id=r.call_id, content=r.content, status=r.status)
                for r in self.tool_results
            ),
            metadata=cast("dict[str, object] | None", self.metadata),
            message_id=self.message_id,
        )


@strawberry.type
class ToolCall:
    id: str
    name: str
    arguments: str


@strawberry.type
class ToolResult:
    call_id: str
    content: str
    status: str


@strawberry.type(description="Where a message sent is: its stable id, session and turn index.")
class TurnRef:
    id: str = strawberry.field(description="the turn's stable id (empty when erased)")
    session_id: str
    turn_index: int | None
    outcome: str = strawberry.field(description="stored, duplicate or erased (not stored again)")


@strawberry.type
class ActionCount:
    action: str
    count: int


@strawberry.type
class IngestPayload:
    stored: int = strawberry.field(description="Turns added to the log.")
    duplicates: int = strawberry.field(
        description="Turns already in the log (or repeated in the batch) with the same text: "
        "left as they were. A turn whose (session, turn index) holds another text fails the "
        "whole batch with TURN_CONFLICT instead."
    )
    extracted_turns: int
    pending_turns: int
    actions: list[ActionCount]
    turns: list[TurnRef] = strawberry.field(description="each message sent, in order")
    erased: int = strawberry.field(description="messages not stored again: they were erased")


@strawberry.type
class Episode:
    id: str = strawberry.field(description="the turn's stable id")
    uid: str
    session_id: str
    turn_index: int
    speaker: str
    role: str | None
    text: str
    timestamp: str | None
    file_paths: list[str]
    recorded_at: str
    high_signal: bool
    signal_kinds: list[str]
    extracted_at: str | None
    extractor: str | None
    memory_ids: list[strawberry.ID]
    message_id: str | None
    tool_calls: list[ToolCall]
    tool_results: list[ToolResult]
    metadata: JSON | None

    @classmethod
    def of(cls, e: model.Episode) -> Episode:
        return cls(
            id=e.id, message_id=e.message_id, metadata=cast(JSON, e.metadata),
            tool_calls=[ToolCall(id=c.id, name=c.name, arguments=c.arguments)
                        for c in e.tool_calls],
            tool_results=[ToolResult(call_id=r.call_id, content=r.content, status=r.status)
                          for r in e.tool_results],
            uid=e.uid, session_id=e.session_id, turn_index=e.turn_index, speaker=e.speaker,
            role=e.role, text=e.text, timestamp=e.timestamp, file_paths=list(e.file_paths),
            recorded_at=e.recorded_at, high_signal=e.high_signal,
            signal_kinds=list(e.signal_kinds), extracted_at=e.extracted_at,
            extractor=e.extractor, memory_ids=[strawberry.ID(i) for i in e.memory_ids],
        )  # fmt: skip


@strawberry.type
class Decision:
    id: strawberry.ID
    at: str
    source: str = strawberry.field(description="remember, extract, consolidate or rebuild")
    action: str = strawberry.field(description="ADD UPDATE SUPERSEDE CONTRADICT NOOP SKIP ARCHIVE")
    memory_id: str | None
    target_id: str | None
    reason: str
    decider: str
    similarity: float | None
    content: str


@strawberry.type
class MemoryVersion:
    content: str
    at: str
    reason: str
    decision_id: str | None


@strawberry.type
class RelatedMemory:
    id: strawberry.ID
    content: str
    status: str
    created_at: str | None
    resolved: bool | None
    resolution: str | None


@strawberry.type
class MemoryHistory:
    memory_id: strawberry.ID
    decisions: list[Decision]
    versions: list[MemoryVersion] = strawberry.field(description="earlier texts, oldest first")
    supersedes: list[RelatedMemory] = strawberry.field(description="the facts this one replaced")
    superseded_by: list[RelatedMemory]
    contradicts: list[RelatedMemory]

    @classmethod
    def of(cls, h: memory_history.MemoryHistory) -> MemoryHistory:
        def related(r: memory_history.Related) -> RelatedMemory:
            return RelatedMemory(
                id=strawberry.ID(r.id), content=r.content, status=r.status,
                created_at=r.created_at, resolved=r.resolved, resolution=r.resolution,
            )  # fmt: skip

        return cls(
            memory_id=strawberry.ID(h.memory_id),
            decisions=[
                Decision(
                    id=strawberry.ID(d.id),
                    at=d.at,
                    source=d.source,
                    action=d.action,
                    memory_id=d.memory_id,
                    target_id=d.target_id,
                    reason=d.reason,
                    decider=d.decider,
                    similarity=d.similarity,
                    content=d.content,
                )  # fmt: skip
                for d in h.decisions
            ],
            versions=[
                MemoryVersion(
                    content=v.content, at=v.at, reason=v.reason, decision_id=v.decision_id
                )  # fmt: skip
                for v in h.versions
            ],
            supersedes=[related(r) for r in h.supersedes],
            superseded_by=[related(r) for r in h.superseded_by],
            contradicts=[related(r) for r in h.contradicts],
        )


@strawberry.type
class ConsolidationOperation:
    op: str = strawberry.field(description="merge, correct, supersede, resolve, flag, archive")
    namespace: str
    keep: str | None
    other: str
    reason: str
    decider: str


@strawberry.type
class EntityMergeProposal:
    namespace: str
    keep: strawberry.ID = strawberry.field(description="The entity that would stay.")
    keep_name: str
    other: strawberry.ID = strawberry.field(description="The entity that would join it.")
    other_name: str
    reason: str


@strawberry.type
class ConsolidationReport:
    run_id: str | None
    ran: bool
    dry_run: bool
    scope: str
    skipped: str | None = strawberry.field(description="why the gate said not yet")
    started_at: str
    finished_at: str
    counts: JSON
    operations: list[ConsolidationOperation]
    errors: list[str]
    watermark_before: str | None
    watermark_after: str | None
    entity_merges: list[EntityMergeProposal] = strawberry.field(
        description="Entities that name one thing: proposed, never merged by the run "
        "(mergeEntities accepts one)."
    )

    @classmethod
    def of(cls, r: Report) -> ConsolidationReport:
        return cls(
            run_id=r.run_id, ran=r.ran, dry_run=r.dry_run, scope=r.scope, skipped=r.skipped,
            started_at=r.started_at, finished_at=r.finished_at, counts=cast(JSON, dict(r.counts)),
            operations=[ConsolidationOperation(**op.__dict__) for op in r.operations],
            errors=list(r.errors), watermark_before=r.watermark_before,
            watermark_after=r.watermark_after,
            entity_merges=[EntityMergeProposal(
                namespace=p.namespace, keep=strawberry.ID(p.keep), keep_name=p.keep_name,
                other=strawberry.ID(p.other), other_name=p.other_name, reason=p.reason,
            ) for p in r.entity_merges],
        )  # fmt: skip


@strawberry.type
class RebuildPayload:
    episodes: int
    remember_events: int
    active: int
    actions: list[ActionCount]


@strawberry.type
class IngestQuery:
    @strawberry.field(description="How a memory came to be: decisions, earlier texts, timeline.")
    async def history(self, info: Info, namespace: str, memory_id: strawberry.ID) -> MemoryHistory:
        rt = runtime(info)
        found = await run_in_threadpool(memory_history.history, rt.store, namespace, str(memory_id))
        return MemoryHistory.of(found)

    @strawberry.field(description="The episode log, in session and turn order.")
    async def episodes(
        self,
        info: Info,
        namespace: str,
        session_id: str | None = None,
        first: int = 50,
        after: str | None = None,
    ) -> list[Episode]:
        rt = runtime(info)
        found = await run_in_threadpool(
            episode_log.list_episodes,
            rt.store,
            namespace,
            session_id=session_id,
            first=first,
            after=after,
        )
        return [Episode.of(e) for e in found]


@strawberry.type
class IngestMutation:
    @strawberry.mutation(
        description="Append turns to the episode log (idempotent by session and turn index) "
        "and extract what is due; flush extracts every buffered turn now."
    )
    async def ingest(
        self, info: Info, namespace: str, turns: list[TurnInput], flush: bool = False
    ) -> IngestPayload | None:
        rt = runtime(info)

        def work() -> episode_log.IngestResult:
            tools = write_tools(rt)
            try:
                return episode_log.ingest(
                    rt.store, rt.embedder, namespace, [t.to_domain() for t in turns],
                    policy=rt.policy, config=tools.extraction, flush=flush,
                )  # fmt: skip
            finally:
                tools.close()

        result = await heavy(info, work)
        return IngestPayload(
            stored=result.stored,
            duplicates=result.duplicates,
            extracted_turns=result.extracted_turns,
            pending_turns=result.pending_turns,
            actions=_actions(result.actions),
            turns=[TurnRef(id=r.id, session_id=r.session_id, turn_index=r.turn_index,
                           outcome=r.outcome) for r in result.turns],
            erased=result.erased,
        )  # fmt: skip

    @strawberry.mutation(
        description="Consolidate one namespace or all (gated by time and new facts unless "
        "force; dryRun returns the plan and writes nothing). LOCKED if one already runs."
    )
    async def consolidate(
        self,
        info: Info,
        namespace: str | None = None,
        dry_run: bool = False,
        force: bool = False,
    ) -> ConsolidationReport | None:
        rt = runtime(info)
        report = await heavy(
            info, lambda: consolidate_now(rt, namespace=namespace, dry_run=dry_run, force=force)
        )
        return ConsolidationReport.of(report)

    @strawberry.mutation(
        description="Rebuild a namespace's memories from its log (episodes, remembers, forgets "
        "and edits), under the ids they had. A rebuild interrupted midway is finished by the "
        "next one (or at the server's start)."
    )
    async def rebuild(self, info: Info, namespace: str) -> RebuildPayload | None:
        rt = runtime(info)
        result = await heavy(info, rebuild_now, rt, namespace)
        return RebuildPayload(
            episodes=result.episodes,
            remember_events=result.remember_events,
            active=result.active,
            actions=_actions(result.actions),
        )


def _actions(counts: dict[str, int]) -> list[ActionCount]:
    return [ActionCount(action=a, count=n) for a, n in sorted(counts.items())]
