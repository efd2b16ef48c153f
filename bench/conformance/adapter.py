"""The conformance suite's ``BaseAdapter`` over a live Hippograph server, through
``hippograph.client.AsyncClient``: every call is one or a few GraphQL operations an integrator
would send, and every answer is read back from the server (``mapping`` says how).

Each test works in a namespace of its own (``clear_all_data`` moves to a fresh one): that is
Hippograph's unit of isolation, and it has no "delete everything" operation. The one state the
adapter keeps is the table from the step ids it hands out to (run, n), which is how Hippograph
names a step. A method with no counterpart raises ``NotImplementedError`` (the suite's own
"not supported"), as the base class does for the optional ones.

Needs the suite on ``sys.path`` (``tck``); ``python -m bench.conformance`` sets that up.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import uuid
from typing import Any
from uuid import UUID

from tck.adapters.base_adapter import (
    BaseAdapter,
    TCKBulkMessageInput,
    TCKConversation,
    TCKEntity,
    TCKEntityGraph,
    TCKEntityMergeResult,
    TCKFact,
    TCKMessage,
    TCKPreference,
    TCKReasoningStep,
    TCKReasoningTrace,
    TCKRelationship,
    TCKSessionInfo,
    TCKToolCall,
    TCKToolStats,
    ToolCallStatus,
)

from bench.conformance import mapping
from hippograph.client import AsyncClient, NewMemory, NotFound, Turn
from hippograph.client.views import episode
from hippograph.graph.model import Episode, now_iso

URL_VARIABLE = "HIPPOGRAPH_TCK_URL"
PAGE = 100  # turns read per conversation page
SEARCH_K = 50  # memories a search reads before keeping those of the asked kind
GRAPH_ENTITIES = 500  # entities the graph view reads (the most mentioned first)
_RUNS = itertools.count()


class HippographAdapter(BaseAdapter):  # type: ignore[misc]  # the suite is untyped
    """``url``: the server's GraphQL endpoint (default: ``$HIPPOGRAPH_TCK_URL``)."""

    def __init__(self, url: str | None = None) -> None:
        self._url = url or os.environ[URL_VARIABLE]
        self.namespace = self._fresh_namespace()
        self._steps: dict[UUID, tuple[str, int]] = {}
        self._sessions: dict[UUID, str] = {}  # conversations named before their first message
        self._clients: dict[asyncio.AbstractEventLoop, AsyncClient] = {}

    @staticmethod
    def _fresh_namespace() -> str:
        return f"tck-{os.getpid()}-{next(_RUNS)}"

    @property
    def _client(self) -> AsyncClient:
        """A client of the running event loop: the suite runs each test in a loop of its own,
        and an httpx connection pool is bound to the loop it was opened in."""
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            for old in [x for x in self._clients if x.is_closed()]:
                del self._clients[old]
            client = self._clients[loop] = AsyncClient(self._url, namespace=self.namespace)
        client.namespace = self.namespace
        return client

    # --- Lifecycle ---

    async def setup(self) -> None:
        await self._client.health()

    async def teardown(self) -> None:
        await self._client.aclose()

    async def clear_all_data(self) -> None:
        self.namespace = self._fresh_namespace()
        self._steps.clear()
        self._sessions.clear()

    # --- Conversations: the ledger ---

    async def add_message(
        self, session_id: str, role: str, content: str, *, metadata: dict[str, Any] | None = None
    ) -> TCKMessage:
        # flush: the message's facts are extracted now, so a search finds it at once.
        sent = await self._client.ingest(
            [Turn(session_id=session_id, text=content, role=role, metadata=metadata)], flush=True
        )
        ref = sent.turns[0]
        for turn in await self._turns(session_id):
            if turn.id == ref.id:
                return TCKMessage(**mapping.message(turn))
        raise LookupError(f"turn {ref.id} was stored but is not in its session")

    async def _turns(self, session_id: str, limit: int | None = None) -> list[Episode]:
        turns: list[Episode] = []
        after: str | None = None
        while limit is None or len(turns) < limit:
            want = PAGE if limit is None else min(PAGE, limit - len(turns))
            page = await self._client.conversation(session_id, first=want, after=after)
            turns.extend(page.turns)
            if page.next_cursor is None:
                break
            after = page.next_cursor
        return turns

    async def get_conversation(
        self, session_id: str, *, limit: int | None = None
    ) -> TCKConversation:
        turns = await self._turns(session_id, limit)
        return TCKConversation(**mapping.conversation(self.namespace, session_id, turns, now_iso()))

    async def search_messages(
        self,
        query: str,
        *,
        session_id: str | None = None,
        limit: int = 10,
        threshold: float = 0.7,
    ) -> list[TCKMessage]:
        # Hippograph searches memories, not the turn log: the turns a matching memory was
        # derived from, best memory first.
        found: dict[str, TCKMessage] = {}
        for scored in await self._client.search(query, k=SEARCH_K):
            if scored.score < threshold or len(found) >= limit:
                continue
            for derivation in await self._client.provenance(scored.memory.id):
                turn = episode(derivation["episode"])
                if session_id is None or turn.session_id == session_id:
                    found.setdefault(turn.id, TCKMessage(**mapping.message(turn)))
        return list(found.values())[:limit]

    async def list_sessions(self, *, limit: int = 100) -> list[TCKSessionInfo]:
        page = await self._client.sessions(first=limit)
        return [TCKSessionInfo(**mapping.session_info(s)) for s in page.items]

    async def delete_message(self, message_id: UUID) -> bool:
        try:
            erased = await self._client.erase_turn(str(message_id))
        except NotFound:
            return False
        return erased.turns > 0

    async def clear_session(self, session_id: str) -> None:
        await self._client.clear_session(session_id)

    # --- Long-term memory: entities, facts, preferences ---

    async def add_entity(
        self, name: str, entity_type: str, *, description: str | None = None
    ) -> TCKEntity:
        made = await self._client.define_entity(
            name, kind=mapping.kind(entity_type), description=description
        )
        return TCKEntity(**mapping.entity(made))

    async def add_preference(
        self, category: str, preference: str, *, context: str | None = None
    ) -> TCKPreference:
        item = NewMemory(
            content=preference,
            memory_type="preference",
            tags=(mapping.category_tag(category),),
            trigger_patterns=(context,) if context else (),
        )
        (result,) = await self._client.remember(item)
        return TCKPreference(**mapping.preference(result.memory))

    async def add_fact(self, subject: str, predicate: str, obj: str) -> TCKFact:
        held = await self._client.relate(subject, predicate, obj)
        subject_uid = (await self._client.entity(subject, memories=0, timeline=0)).entity.uid
        target = (await self._client.entity(obj, memories=0, timeline=0)).entity.uid
        for r in held:
            if r.outgoing and r.other_uid == target and r.until is None:
                return TCKFact(**mapping.fact(subject_uid, subject, r))
        raise LookupError(f"{subject} {predicate} {obj} was related but is not held")

    async def search_entities(self, query: str, *, limit: int = 10) -> list[TCKEntity]:
        found = await self._client.entities(query=query, first=limit)
        return [TCKEntity(**mapping.entity(e)) for e in found]

    async def search_preferences(
        self, query: str, *, category: str | None = None, limit: int = 10
    ) -> list[TCKPreference]:
        # search has no type filter: the preferences among the nearest memories.
        found = []
        for scored in await self._client.search(query, k=SEARCH_K):
            m = scored.memory
            wanted = category is None or mapping.category_tag(category) in m.tags
            if m.memory_type == "preference" and wanted:
                found.append(TCKPreference(**mapping.preference(m)))
        return found[:limit]

    async def get_entity_by_name(self, name: str) -> TCKEntity | None:
        try:
            view = await self._client.entity(name, memories=0, timeline=0)
        except NotFound:
            return None
        return TCKEntity(**mapping.entity(view.entity))

    async def get_related_entities(
        self, entity_id: UUID, *, relationship_type: str | None = None, depth: int = 1
    ) -> list[TCKEntity]:
        types = [relationship_type] if relationship_type else None
        seen = {str(entity_id)}
        frontier = [str(entity_id)]
        related: list[TCKEntity] = []
        for _ in range(depth):
            reached: list[str] = []
            for uid in frontier:
                view = await self._client.entity(entity_id=uid, memories=0, timeline=0, types=types)
                for r in view.relationships:
                    if r.until is None and r.other_uid not in seen:
                        seen.add(r.other_uid)
                        reached.append(r.other_uid)
            for uid in reached:
                other = await self._client.entity(entity_id=uid, memories=0, timeline=0)
                related.append(TCKEntity(**mapping.entity(other.entity)))
            frontier = reached
        return related

    async def add_relationship(
        self,
        source_id: UUID,
        target_id: UUID,
        relationship_type: str,
        *,
        properties: dict[str, Any] | None = None,
    ) -> TCKRelationship:
        if properties:
            raise NotImplementedError("Hippograph relationships hold no caller properties")
        held = await self._client.relate(str(source_id), relationship_type, str(target_id))
        for r in held:
            if r.outgoing and r.other_uid == str(target_id) and r.until is None:
                return TCKRelationship(**mapping.relationship(str(source_id), r))
        raise LookupError(f"{source_id} {relationship_type} {target_id} is not held")

    async def merge_duplicate_entities(
        self, source_id: UUID, target_id: UUID, *, canonical_name: str | None = None
    ) -> TCKEntity:
        if canonical_name is not None:
            raise NotImplementedError("Hippograph does not rename an entity on merge")
        kept = await self._client.merge_entities(str(source_id), str(target_id))
        return TCKEntity(**mapping.entity(kept))

    # --- Reasoning: runs ---

    async def start_trace(self, session_id: str, task: str) -> TCKReasoningTrace:
        run = await self._client.start_run(task, session_id=session_id)
        return TCKReasoningTrace(**mapping.trace(run))

    async def add_step(
        self,
        trace_id: UUID,
        *,
        thought: str | None = None,
        action: str | None = None,
        observation: str | None = None,
    ) -> TCKReasoningStep:
        made = await self._client.add_step(
            str(trace_id), thought=thought, action=action, observation=observation
        )
        fields = mapping.step(made)
        self._steps[fields["id"]] = (made.run_id, made.n)
        return TCKReasoningStep(**fields)

    async def record_tool_call(
        self,
        step_id: UUID,
        tool_name: str,
        arguments: dict[str, Any],
        *,
        result: Any = None,
        status: ToolCallStatus = ToolCallStatus.SUCCESS,
        duration_ms: int | None = None,
        error: str | None = None,
    ) -> TCKToolCall:
        run_id, n = self._steps[step_id]
        call = await self._client.add_tool_call(
            run_id,
            tool_name,
            arguments,
            step=n,
            result=result,
            status=ToolCallStatus(status).value,
            duration_ms=duration_ms,
            error=error,
        )
        return TCKToolCall(**mapping.tool_call(call))

    async def complete_trace(
        self, trace_id: UUID, *, outcome: str | None = None, success: bool | None = None
    ) -> TCKReasoningTrace:
        if success is None:
            raise NotImplementedError("Hippograph finishes a run as a success or a failure")
        done = await self._client.finish_run(str(trace_id), success=success, outcome=outcome)
        return TCKReasoningTrace(**mapping.trace(done.run))

    async def get_trace_with_steps(self, trace_id: UUID) -> TCKReasoningTrace | None:
        run = await self._client.run(str(trace_id))
        return None if run is None else TCKReasoningTrace(**mapping.trace(run))

    async def list_traces(
        self, *, session_id: str | None = None, limit: int = 100
    ) -> list[TCKReasoningTrace]:
        runs = await self._client.runs(session_id=session_id, first=limit)
        return [TCKReasoningTrace(**mapping.trace(r)) for r in runs]

    async def get_tool_stats(self, tool_name: str | None = None) -> list[TCKToolStats]:
        stats = await self._client.tool_stats(tool_name)
        return [TCKToolStats(**mapping.tool_stats(s)) for s in stats]

    async def get_similar_traces(
        self, task: str, *, limit: int = 5, success_only: bool = True
    ) -> list[TCKReasoningTrace]:
        found = await self._client.similar_runs(
            task, k=limit, success=True if success_only else None
        )
        return [TCKReasoningTrace(**mapping.trace(s.run)) for s in found]

    # --- Hosted-service operations that map (the others stay NotImplementedError) ---

    async def create_conversation(
        self, user_id: str, *, metadata: dict[str, Any] | None = None
    ) -> TCKConversation:
        # A session comes into being with its first message: this names a new one. Hippograph
        # keeps no owner on a session (the namespace is whose memory it is): user_id is dropped.
        session_id = f"conversation-{uuid.uuid4()}"
        conv = mapping.conversation(self.namespace, session_id, [], now_iso())
        self._sessions[conv["id"]] = session_id
        return TCKConversation(**conv)

    async def _session_of(self, conversation_id: UUID) -> str | None:
        if conversation_id in self._sessions:
            return self._sessions[conversation_id]
        after: str | None = None
        while True:
            page = await self._client.sessions(first=PAGE, after=after)
            for s in page.items:
                if mapping.conversation_id(self.namespace, s.session_id) == conversation_id:
                    return s.session_id
            if page.next_cursor is None:
                return None
            after = page.next_cursor

    async def list_conversations(self, *, limit: int | None = None) -> list[TCKConversation]:
        page = await self._client.sessions(first=limit or PAGE)
        return [TCKConversation(**mapping.conversation_of(self.namespace, s)) for s in page.items]

    async def get_conversation_metadata(self, conversation_id: UUID) -> TCKConversation:
        session_id = await self._session_of(conversation_id)
        if session_id is None:
            raise LookupError(f"no conversation {conversation_id}")
        for s in (await self._client.sessions(first=PAGE)).items:
            if s.session_id == session_id:
                return TCKConversation(**mapping.conversation_of(self.namespace, s))
        return TCKConversation(**mapping.conversation(self.namespace, session_id, [], now_iso()))

    async def delete_conversation(self, conversation_id: UUID) -> None:
        session_id = await self._session_of(conversation_id)
        if session_id is not None:
            await self._client.clear_session(session_id)

    async def bulk_add_messages(
        self, conversation_id: UUID, messages: list[TCKBulkMessageInput]
    ) -> list[TCKMessage]:
        session_id = await self._session_of(conversation_id)
        if session_id is None:
            raise LookupError(f"no conversation {conversation_id}")
        turns = [
            Turn(session_id=session_id, text=m.content, role=m.role, metadata=m.metadata)
            for m in messages
        ]
        sent = await self._client.ingest(turns, flush=True)
        ids = [ref.id for ref in sent.turns]
        stored = {t.id: t for t in await self._turns(session_id)}
        return [TCKMessage(**mapping.message(stored[i])) for i in ids]

    async def list_entities(
        self, *, type: str | None = None, limit: int | None = None
    ) -> list[TCKEntity]:
        kind = mapping.kind(type) if type else None
        found = await self._client.entities(kind=kind, first=limit or 50)
        return [TCKEntity(**mapping.entity(e)) for e in found]

    async def get_entity(self, entity_id: UUID) -> TCKEntity:
        view = await self._client.entity(entity_id=str(entity_id), memories=0, timeline=0)
        return TCKEntity(**mapping.entity(view.entity))

    async def merge_entities(self, source_id: UUID, target_id: UUID) -> TCKEntityMergeResult:
        await self._client.merge_entities(str(source_id), str(target_id))
        return TCKEntityMergeResult(source_id=source_id, target_id=target_id, status="merged")

    async def get_entity_graph(self) -> TCKEntityGraph:
        nodes = await self._client.entities(first=GRAPH_ENTITIES)
        edges = []
        for e in nodes:
            view = await self._client.entity(entity_id=e.uid, memories=0, timeline=0)
            edges += [mapping.edge(e.uid, r) for r in view.relationships if r.outgoing]
        return TCKEntityGraph(nodes=[mapping.node(e) for e in nodes], edges=edges)
