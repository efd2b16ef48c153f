"""``Client`` and ``AsyncClient``: the memory actions over the GraphQL API, with httpx.

Both send the operations of ``hippograph.client.operations`` and return the domain records;
a GraphQL error is raised as the Hippograph error its ``extensions.code`` names
(``hippograph.client.errors``). Transport failures are httpx's own exceptions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, TypeVar

import httpx

from hippograph.client import entity_views, views
from hippograph.client import operations as ops
from hippograph.client import operations_more as opx
from hippograph.client.errors import BAD_REQUEST, RemoteError, from_graphql
from hippograph.client.records import (
    Health,
    IngestResult,
    Json,
    Link,
    MemoryHistory,
    Rating,
    RecallResult,
    Turn,
)
from hippograph.client.runs import AsyncRunMethods, RunMethods
from hippograph.graph import model
from hippograph.graph.model import Memory, MemoryFilter, NewMemory, Page, RememberResult, Tag
from hippograph.graph.model import ScoredMemory as Scored

T = TypeVar("T")
DEFAULT_URL = "http://127.0.0.1:8000/graphql"


def _payload(op: ops.Operation[Any]) -> Json:
    return {"query": op.document, "variables": op.variables}


def _data(response: httpx.Response) -> Json:
    try:
        body = response.json()
    except ValueError:
        response.raise_for_status()
        raise RemoteError(
            BAD_REQUEST, f"not a GraphQL response: {response.text[:200]}", {}
        ) from None
    if body.get("errors"):
        raise from_graphql(body["errors"][0])
    response.raise_for_status()
    data: Json = body["data"]
    return data


class Client(RunMethods):
    """The memory actions of one namespace, synchronously.

    url: the GraphQL endpoint. namespace: the namespace every call works in.
    http: an ``httpx.Client`` to send with (kept open; e.g. Starlette's ``TestClient``);
    otherwise the client makes one with ``timeout`` and ``headers`` and closes it on ``close``.
    """

    def __init__(
        self,
        url: str = DEFAULT_URL,
        *,
        namespace: str = "default",
        http: httpx.Client | None = None,
        timeout: float = 60.0,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.url = url
        self.namespace = namespace
        self._owned = http is None
        self._http = http or httpx.Client(timeout=timeout, headers=dict(headers or {}))

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._owned:
            self._http.close()

    def execute(self, document: str, variables: Json | None = None) -> Json:
        """Any GraphQL document; its ``data``, or the typed error of its first error."""
        return _data(self._http.post(self.url, json={"query": document, "variables": variables}))

    def _run(self, op: ops.Operation[T]) -> T:
        return op.read(_data(self._http.post(self.url, json=_payload(op))))

    def remember(self, *items: NewMemory) -> list[RememberResult]:
        """Remember one memory or a batch, atomically; one result per item, in order."""
        return self._run(ops.remember(self.namespace, items))

    def recall(
        self,
        context: str,
        *,
        k: int | None = None,
        project: str | None = None,
        session_id: str | None = None,
        memory_types: Sequence[str] | None = None,
        include_archived: bool = False,
        include_history: bool = False,
        explain: bool = False,
        verify: bool = False,
        rejected: str = "drop",
        include_gap: bool = False,
        as_of: str | None = None,
        valid_at: str | None = None,
    ) -> RecallResult:
        """What is relevant to ``context`` (k: how many; memory_types: the domain's lower-case
        names; explain: each item's seed, path and score components; verify: the configured
        LLM checks the best candidates, rejected ones dropped or, with rejected="flag", marked;
        include_gap: the nearest memories even when nothing is relevant; as_of: an ISO time,
        answered as the store stood then; valid_at: an ISO event time, what was true then)."""
        return self._run(
            ops.recall(
                self.namespace,
                context,
                k=k,
                project=project,
                session_id=session_id,
                memory_types=memory_types,
                include_archived=include_archived,
                include_history=include_history,
                explain=explain,
                verify=verify,
                rejected=rejected,
                include_gap=include_gap,
                as_of=as_of,
                valid_at=valid_at,
            )  # fmt: skip
        )

    def search(
        self,
        query: str,
        *,
        k: int | None = None,
        as_of: str | None = None,
        project: str | None = None,
        session_id: str | None = None,
        valid_at: str | None = None,
    ) -> list[Scored]:
        """Plain vector top-k over active memories (as_of: as the store stood then; valid_at:
        what was true then), scoped as recall is: global memories, those of project and those
        of session_id."""
        return self._run(ops.search(self.namespace, query, k, as_of, project, session_id, valid_at))

    def memories(
        self,
        flt: MemoryFilter | None = None,
        *,
        first: int | None = None,
        after: str | None = None,
        as_of: str | None = None,
        project: str | None = None,
        session_id: str | None = None,
    ) -> Page:
        """One page of memories matching ``flt``, newest first; pass ``next_cursor`` as after
        (as_of: as the store stood then), scoped as recall is: global memories, those of
        project and those of session_id."""
        return self._run(
            ops.memories(self.namespace, flt, first, after, as_of, project, session_id)
        )

    def memory(
        self, memory_id: str, *, project: str | None = None, session_id: str | None = None
    ) -> Memory:
        """One memory by id, scoped as recall is (NotFound for another project's or session's)."""
        return self._run(ops.memory(self.namespace, memory_id, project, session_id))

    def forget(self, memory_id: str, *, hard: bool = False, reason: str | None = None) -> str:
        """Archive (hard: delete) a memory; returns its id."""
        return self._run(ops.forget(self.namespace, memory_id, hard, reason))

    def link(
        self,
        from_id: str,
        to_id: str,
        *,
        relation: str | None = None,
        weight: float | None = None,
    ) -> Link:
        """relation: RELATES_TO (default), CONTRADICTS or DERIVED_FROM."""
        return self._run(ops.link(self.namespace, from_id, to_id, relation, weight))

    def tag(self, memory_id: str, *tags: str) -> Memory:
        return self._run(ops.tag(self.namespace, memory_id, tags, remove=False))

    def untag(self, memory_id: str, *tags: str) -> Memory:
        return self._run(ops.tag(self.namespace, memory_id, tags, remove=True))

    def supersede(self, old_id: str, new_id: str, *, reason: str | None = None) -> Memory:
        """Mark ``old_id`` superseded by ``new_id``; returns the old memory."""
        return self._run(ops.supersede(self.namespace, old_id, new_id, reason))

    def history(self, memory_id: str) -> MemoryHistory:
        return self._run(ops.history(self.namespace, memory_id))

    def ingest(self, turns: Sequence[Turn], *, flush: bool = False) -> IngestResult:
        return self._run(ops.ingest(self.namespace, turns, flush))

    def feedback(self, memory_id: str, *, helpful: bool) -> Rating:
        return self._run(ops.feedback(self.namespace, memory_id, helpful))

    def health(self) -> Health:
        return self._run(ops.health())

    def context(
        self,
        context: str,
        *,
        budget: int | None = None,
        format: str | None = None,
        session_id: str | None = None,
        project: str | None = None,
        k: int | None = None,
    ) -> views.ContextBundle:
        """The memories relevant to ``context`` as prompt text within ``budget`` tokens
        (format: markdown or json), the core block first."""
        return self._run(
            opx.context(
                self.namespace,
                context,
                budget=budget,
                format=format,
                session_id=session_id,
                project=project,
                k=k,
            )
        )

    def observe(
        self,
        session_id: str,
        context: str,
        *,
        budget: int | None = None,
        format: str | None = None,
        project: str | None = None,
        k: int | None = None,
    ) -> views.Observation:
        """Next-turn mode: hand over this turn's context; its bundle is built in the background."""
        return self._run(
            opx.observe(
                self.namespace,
                session_id,
                context,
                budget=budget,
                format=format,
                project=project,
                k=k,
            )
        )

    def pending(self, session_id: str) -> views.Pending | None:
        """The latest bundle finished for ``session_id`` (see observe), or None."""
        return self._run(opx.pending(self.namespace, session_id))

    def used(self, *memory_ids: str) -> views.Used:
        """Report the memories used (e.g. in one answer)."""
        return self._run(opx.used(self.namespace, memory_ids))

    def core(self) -> views.CoreBlock:
        """The core block and its latest changes."""
        return self._run(opx.core(self.namespace))

    def core_changes(self, *, first: int | None = None) -> list[views.CoreChange]:
        """How the core block changed, newest first."""
        return self._run(opx.core_changes(self.namespace, first))

    def profile(self) -> views.Profile:
        """Who the user is and what they want, with skill proposals."""
        return self._run(opx.profile(self.namespace))

    def entity(
        self,
        name: str | None = None,
        *,
        entity_id: str | None = None,
        memories: int | None = None,
        timeline: int | None = None,
        types: Sequence[str] | None = None,
        project: str | None = None,
        session_id: str | None = None,
    ) -> entity_views.EntityView:
        """Everything about one entity (by name, alias or id): its aliases, relationships,
        most important current memories and timeline (scoped as recall is)."""
        return self._run(opx.entity(self.namespace, name, entity_id, memories, timeline, types,
                                    project, session_id))  # fmt: skip

    def entities(
        self,
        *,
        kind: str | None = None,
        query: str | None = None,
        first: int | None = None,
        project: str | None = None,
        session_id: str | None = None,
    ) -> list[entity_views.Entity]:
        """The namespace's entities, the most mentioned first (scoped as recall is)."""
        return self._run(opx.entities(self.namespace, kind, query, first, project, session_id))

    def define_entity(
        self, name: str, *, kind: str | None = None, description: str | None = None
    ) -> entity_views.Entity:
        """The entity ``name`` names, created when unknown; its kind and description set when
        given."""
        return self._run(opx.define_entity(self.namespace, name, kind, description))

    def relate(
        self,
        source: str,
        type_: str,
        target: str,
        *,
        kind: str | None = None,
        since: str | None = None,
        ended: bool = False,
    ) -> list[entity_views.Relationship]:
        """source TYPE target between entities, each a uid or a name (created when unknown);
        ended: it ends."""
        return self._run(opx.relate(self.namespace, source, type_, target, kind, since, ended))

    def merge_entities(
        self, source: str, into: str, *, reason: str | None = None
    ) -> entity_views.Entity:
        """Record that source is the same entity as into (undone by split_entity)."""
        return self._run(opx.merge_entities(self.namespace, source, into, reason))

    def split_entity(self, entity_id: str) -> entity_views.Entity:
        """Undo the merge of an entity."""
        return self._run(opx.split_entity(self.namespace, entity_id))

    def sessions(self, *, first: int | None = None, after: str | None = None) -> views.SessionPage:
        """The sessions, most recently active first (after: a page's next_cursor)."""
        return self._run(opx.sessions(self.namespace, first, after))

    def conversation(
        self,
        session_id: str,
        *,
        first: int | None = None,
        after: str | None = None,
        direction: str = "forward",
    ) -> views.ConversationPage:
        """One page of a session's turns, forward (oldest first) or backward (newest first)."""
        return self._run(opx.conversation(self.namespace, session_id, first, after, direction))

    def episodes(
        self,
        *,
        session_id: str | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> list[model.Episode]:
        """The episode log in session and turn order (after: the last uid seen)."""
        return self._run(opx.episodes(self.namespace, session_id, first, after))

    def erase_turn(self, turn_id: str) -> views.Erasure:
        """Erase one turn and what was derived only from it."""
        return self._run(opx.erase_turn(self.namespace, turn_id))

    def clear_session(self, session_id: str) -> views.Erasure:
        """Erase every turn of a session and what was derived only from them."""
        return self._run(opx.clear_session(self.namespace, session_id))

    def erase(
        self,
        *,
        memory_ids: Sequence[str] | None = None,
        turn_ids: Sequence[str] | None = None,
        text: str | None = None,
        dry_run: bool = False,
    ) -> views.Erasure:
        """Erase memories (by id, or holding text), turns, and what was derived from them."""
        return self._run(opx.erase(self.namespace, memory_ids, turn_ids, text, dry_run))

    def tags(self, *, first: int | None = None) -> list[Tag]:
        """The namespace's tags with their counts."""
        return self._run(opx.tags(self.namespace, first))

    def gaps(self, *, first: int | None = None) -> list[views.Gap]:
        """Contexts recall found nothing relevant for, most recent first."""
        return self._run(opx.gaps(self.namespace, first))

    def neighbourhood(
        self,
        memory_id: str,
        *,
        depth: int | None = None,
        include_superseded: bool = False,
        include_archived: bool = False,
        limit: int | None = None,
        project: str | None = None,
        session_id: str | None = None,
    ) -> Json:
        """A memory's neighbourhood as the explorer draws it (nodes and edges, JSON)."""
        return self._run(
            opx.neighbourhood(
                self.namespace,
                memory_id,
                depth=depth,
                include_superseded=include_superseded,
                include_archived=include_archived,
                limit=limit,
                project=project,
                session_id=session_id,
            )
        )

    def clusters(
        self,
        *,
        first: int | None = None,
        project: str | None = None,
        session_id: str | None = None,
    ) -> list[Json]:
        """The namespace's clusters (JSON), scoped as recall is."""
        return self._run(opx.clusters(self.namespace, first, project, session_id))

    def provenance(
        self,
        memory_id: str,
        *,
        project: str | None = None,
        session_id: str | None = None,
    ) -> list[Json]:
        """The turns a memory was derived from (JSON), scoped as recall is."""
        return self._run(opx.provenance(self.namespace, memory_id, project, session_id))

    def job_runs(self, name: str | None = None, *, first: int | None = None) -> list[Json]:
        """Recent maintenance job runs (JSON)."""
        return self._run(opx.job_runs(name, first))

    def run_job(self, name: str, *, force: bool = False, namespace: str | None = None) -> Json:
        """Run a maintenance job now and wait for it (admin; JSON)."""
        return self._run(opx.run_job(name, force, namespace))

    def consolidate(
        self, *, all_namespaces: bool = False, dry_run: bool = False, force: bool = False
    ) -> Json:
        """Consolidate the namespace (all_namespaces: every one, admin); JSON report."""
        return self._run(
            opx.consolidate(None if all_namespaces else self.namespace, dry_run, force)
        )

    def rebuild(self) -> Json:
        """Rebuild the namespace's memories from its log (admin; JSON)."""
        return self._run(opx.rebuild(self.namespace))

    def keys(self) -> list[Json]:
        """Every API key (admin; JSON)."""
        return self._run(opx.keys())

    def create_key(self, name: str, role: str, namespaces: Sequence[str]) -> Json:
        """A new API key; its token is in the answer once (admin; JSON)."""
        return self._run(opx.create_key(name, role, namespaces))

    def rotate_key(self, key_id: str) -> Json:
        """A new secret for a key (admin; JSON)."""
        return self._run(opx.rotate_key(key_id))

    def revoke_key(self, key_id: str) -> Json:
        """Revoke a key for good (admin; JSON)."""
        return self._run(opx.revoke_key(key_id))

    def audit(
        self,
        *,
        namespace: str | None = None,
        since: str | None = None,
        limit: int | None = None,
    ) -> list[Json]:
        """The audit trail, newest first (admin; JSON)."""
        return self._run(opx.audit(namespace, since, limit))


class AsyncClient(AsyncRunMethods):
    """``Client``'s actions, awaited (``http``: an ``httpx.AsyncClient``)."""

    def __init__(
        self,
        url: str = DEFAULT_URL,
        *,
        namespace: str = "default",
        http: httpx.AsyncClient | None = None,
        timeout: float = 60.0,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        self.url = url
        self.namespace = namespace
        self._owned = http is None
        self._http = http or httpx.AsyncClient(timeout=timeout, headers=dict(headers or {}))

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owned:
            await self._http.aclose()

    async def execute(self, document: str, variables: Json | None = None) -> Json:
        response = await self._http.post(self.url, json={"query": document, "variables": variables})
        return _data(response)

    async def _run(self, op: ops.Operation[T]) -> T:
        return op.read(_data(await self._http.post(self.url, json=_payload(op))))

    async def remember(self, *items: NewMemory) -> list[RememberResult]:
        return await self._run(ops.remember(self.namespace, items))

    async def recall(
        self,
        context: str,
        *,
        k: int | None = None,
        project: str | None = None,
        session_id: str | None = None,
        memory_types: Sequence[str] | None = None,
        include_archived: bool = False,
        include_history: bool = False,
        explain: bool = False,
        verify: bool = False,
        rejected: str = "drop",
        include_gap: bool = False,
        as_of: str | None = None,
        valid_at: str | None = None,
    ) -> RecallResult:
        return await self._run(
            ops.recall(
                self.namespace,
                context,
                k=k,
                project=project,
                session_id=session_id,
                memory_types=memory_types,
                include_archived=include_archived,
                include_history=include_history,
                explain=explain,
                verify=verify,
                rejected=rejected,
                include_gap=include_gap,
                as_of=as_of,
                valid_at=valid_at,
            )  # fmt: skip
        )

    async def search(
        self,
        query: str,
        *,
        k: int | None = None,
        as_of: str | None = None,
        project: str | None = None,
        session_id: str | None = None,
        valid_at: str | None = None,
    ) -> list[Scored]:
        return await self._run(
            ops.search(self.namespace, query, k, as_of, project, session_id, valid_at)
        )

    async def memories(
        self,
        flt: MemoryFilter | None = None,
        *,
        first: int | None = None,
        after: str | None = None,
        as_of: str | None = None,
        project: str | None = None,
        session_id: str | None = None,
    ) -> Page:
        return await self._run(
            ops.memories(self.namespace, flt, first, after, as_of, project, session_id)
        )

    async def memory(
        self, memory_id: str, *, project: str | None = None, session_id: str | None = None
    ) -> Memory:
        return await self._run(ops.memory(self.namespace, memory_id, project, session_id))

    async def forget(self, memory_id: str, *, hard: bool = False, reason: str | None = None) -> str:
        return await self._run(ops.forget(self.namespace, memory_id, hard, reason))

    async def link(
        self,
        from_id: str,
        to_id: str,
        *,
        relation: str | None = None,
        weight: float | None = None,
    ) -> Link:
        return await self._run(ops.link(self.namespace, from_id, to_id, relation, weight))

    async def tag(self, memory_id: str, *tags: str) -> Memory:
        return await self._run(ops.tag(self.namespace, memory_id, tags, remove=False))

    async def untag(self, memory_id: str, *tags: str) -> Memory:
        return await self._run(ops.tag(self.namespace, memory_id, tags, remove=True))

    async def supersede(self, old_id: str, new_id: str, *, reason: str | None = None) -> Memory:
        return await self._run(ops.supersede(self.namespace, old_id, new_id, reason))

    async def history(self, memory_id: str) -> MemoryHistory:
        return await self._run(ops.history(self.namespace, memory_id))

    async def ingest(self, turns: Sequence[Turn], *, flush: bool = False) -> IngestResult:
        return await self._run(ops.ingest(self.namespace, turns, flush))

    async def feedback(self, memory_id: str, *, helpful: bool) -> Rating:
        return await self._run(ops.feedback(self.namespace, memory_id, helpful))

    async def health(self) -> Health:
        return await self._run(ops.health())

    async def context(
        self,
        context: str,
        *,
        budget: int | None = None,
        format: str | None = None,
        session_id: str | None = None,
        project: str | None = None,
        k: int | None = None,
    ) -> views.ContextBundle:
        return await self._run(
            opx.context(
                self.namespace,
                context,
                budget=budget,
                format=format,
                session_id=session_id,
                project=project,
                k=k,
            )
        )

    async def observe(
        self,
        session_id: str,
        context: str,
        *,
        budget: int | None = None,
        format: str | None = None,
        project: str | None = None,
        k: int | None = None,
    ) -> views.Observation:
        return await self._run(
            opx.observe(
                self.namespace,
                session_id,
                context,
                budget=budget,
                format=format,
                project=project,
                k=k,
            )
        )

    async def pending(self, session_id: str) -> views.Pending | None:
        return await self._run(opx.pending(self.namespace, session_id))

    async def used(self, *memory_ids: str) -> views.Used:
        return await self._run(opx.used(self.namespace, memory_ids))

    async def core(self) -> views.CoreBlock:
        return await self._run(opx.core(self.namespace))

    async def core_changes(self, *, first: int | None = None) -> list[views.CoreChange]:
        return await self._run(opx.core_changes(self.namespace, first))

    async def profile(self) -> views.Profile:
        return await self._run(opx.profile(self.namespace))

    async def entity(
        self,
        name: str | None = None,
        *,
        entity_id: str | None = None,
        memories: int | None = None,
        timeline: int | None = None,
        types: Sequence[str] | None = None,
        project: str | None = None,
        session_id: str | None = None,
    ) -> entity_views.EntityView:
        return await self._run(
            opx.entity(
                self.namespace, name, entity_id, memories, timeline, types, project, session_id
            )  # fmt: skip
        )

    async def entities(
        self,
        *,
        kind: str | None = None,
        query: str | None = None,
        first: int | None = None,
        project: str | None = None,
        session_id: str | None = None,
    ) -> list[entity_views.Entity]:
        return await self._run(
            opx.entities(self.namespace, kind, query, first, project, session_id)
        )

    async def define_entity(
        self, name: str, *, kind: str | None = None, description: str | None = None
    ) -> entity_views.Entity:
        return await self._run(opx.define_entity(self.namespace, name, kind, description))

    async def relate(
        self,
        source: str,
        type_: str,
        target: str,
        *,
        kind: str | None = None,
        since: str | None = None,
        ended: bool = False,
    ) -> list[entity_views.Relationship]:
        return await self._run(
            opx.relate(self.namespace, source, type_, target, kind, since, ended)
        )

    async def merge_entities(
        self, source: str, into: str, *, reason: str | None = None
    ) -> entity_views.Entity:
        return await self._run(opx.merge_entities(self.namespace, source, into, reason))

    async def split_entity(self, entity_id: str) -> entity_views.Entity:
        return await self._run(opx.split_entity(self.namespace, entity_id))

    async def sessions(
        self, *, first: int | None = None, after: str | None = None
    ) -> views.SessionPage:
        return await self._run(opx.sessions(self.namespace, first, after))

    async def conversation(
        self,
        session_id: str,
        *,
        first: int | None = None,
        after: str | None = None,
        direction: str = "forward",
    ) -> views.ConversationPage:
        return await self._run(
            opx.conversation(self.namespace, session_id, first, after, direction)
        )

    async def episodes(
        self,
        *,
        session_id: str | None = None,
        first: int | None = None,
        after: str | None = None,
    ) -> list[model.Episode]:
        return await self._run(opx.episodes(self.namespace, session_id, first, after))

    async def erase_turn(self, turn_id: str) -> views.Erasure:
        return await self._run(opx.erase_turn(self.namespace, turn_id))

    async def clear_session(self, session_id: str) -> views.Erasure:
        return await self._run(opx.clear_session(self.namespace, session_id))

    async def erase(
        self,
        *,
        memory_ids: Sequence[str] | None = None,
        turn_ids: Sequence[str] | None = None,
        text: str | None = None,
        dry_run: bool = False,
    ) -> views.Erasure:
        return await self._run(opx.erase(self.namespace, memory_ids, turn_ids, text, dry_run))

    async def tags(self, *, first: int | None = None) -> list[Tag]:
        return await self._run(opx.tags(self.namespace, first))

    async def gaps(self, *, first: int | None = None) -> list[views.Gap]:
        return await self._run(opx.gaps(self.namespace, first))

    async def neighbourhood(
        self,
        memory_id: str,
        *,
        depth: int | None = None,
        include_superseded: bool = False,
        include_archived: bool = False,
        limit: int | None = None,
        project: str | None = None,
        session_id: str | None = None,
    ) -> Json:
        return await self._run(
            opx.neighbourhood(
                self.namespace,
                memory_id,
                depth=depth,
                include_superseded=include_superseded,
                include_archived=include_archived,
                limit=limit,
                project=project,
                session_id=session_id,
            )
        )

    async def clusters(
        self,
        *,
        first: int | None = None,
        project: str | None = None,
        session_id: str | None = None,
    ) -> list[Json]:
        return await self._run(opx.clusters(self.namespace, first, project, session_id))

    async def provenance(
        self,
        memory_id: str,
        *,
        project: str | None = None,
        session_id: str | None = None,
    ) -> list[Json]:
        return await self._run(opx.provenance(self.namespace, memory_id, project, session_id))

    async def job_runs(self, name: str | None = None, *, first: int | None = None) -> list[Json]:
        return await self._run(opx.job_runs(name, first))

    async def run_job(
        self, name: str, *, force: bool = False, namespace: str | None = None
    ) -> Json:
        return await self._run(opx.run_job(name, force, namespace))

    async def consolidate(
        self, *, all_namespaces: bool = False, dry_run: bool = False, force: bool = False
    ) -> Json:
        return await self._run(
            opx.consolidate(None if all_namespaces else self.namespace, dry_run, force)
        )

    async def rebuild(self) -> Json:
        return await self._run(opx.rebuild(self.namespace))

    async def keys(self) -> list[Json]:
        return await self._run(opx.keys())

    async def create_key(self, name: str, role: str, namespaces: Sequence[str]) -> Json:
        return await self._run(opx.create_key(name, role, namespaces))

    async def rotate_key(self, key_id: str) -> Json:
        return await self._run(opx.rotate_key(key_id))

    async def revoke_key(self, key_id: str) -> Json:
        return await self._run(opx.revoke_key(key_id))

    async def audit(
        self,
        *,
        namespace: str | None = None,
        since: str | None = None,
        limit: int | None = None,
    ) -> list[Json]:
        return await self._run(opx.audit(namespace, since, limit))
