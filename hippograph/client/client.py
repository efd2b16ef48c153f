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

from hippograph.client import operations as ops
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
from hippograph.graph.model import Memory, MemoryFilter, NewMemory, Page, RememberResult
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


class Client:
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
    ) -> RecallResult:
        """What is relevant to ``context`` (k: how many; memory_types: the domain's lower-case
        names; explain: each item's seed, path and score components; verify: the configured
        LLM checks the best candidates, rejected ones dropped or, with rejected="flag", marked;
        include_gap: the nearest memories even when nothing is relevant; as_of: an ISO time,
        answered as the store stood then)."""
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
    ) -> list[Scored]:
        """Plain vector top-k over active memories (as_of: as the store stood then), scoped as
        recall is: global memories, those of project and those of session_id."""
        return self._run(ops.search(self.namespace, query, k, as_of, project, session_id))

    def memories(
        self,
        flt: MemoryFilter | None = None,
        *,
        first: int | None = None,
        after: str | None = None,
        as_of: str | None = None,
    ) -> Page:
        """One page of memories matching ``flt``, newest first; pass ``next_cursor`` as after
        (as_of: as the store stood then)."""
        return self._run(ops.memories(self.namespace, flt, first, after, as_of))

    def memory(self, memory_id: str) -> Memory:
        return self._run(ops.memory(self.namespace, memory_id))

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


class AsyncClient:
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
    ) -> list[Scored]:
        return await self._run(ops.search(self.namespace, query, k, as_of, project, session_id))

    async def memories(
        self,
        flt: MemoryFilter | None = None,
        *,
        first: int | None = None,
        after: str | None = None,
        as_of: str | None = None,
    ) -> Page:
        return await self._run(ops.memories(self.namespace, flt, first, after, as_of))

    async def memory(self, memory_id: str) -> Memory:
        return await self._run(ops.memory(self.namespace, memory_id))

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
