"""A LangGraph ``BaseStore`` whose items are Hippograph memories.

    store = HippographStore(Client(namespace="my-agent"))
    graph = builder.compile(store=store)   # nodes take `store: BaseStore` as LangGraph injects it

An item's text is its memory's content (the value's first string field of ``text_fields``, or
the whole value as JSON when it has none), so recall finds it and a context bundle shows it;
its namespace, key and other fields ride in the memory's ``source.snippet`` (JSON, at most
2,000 characters). Tags place it: one for the store, one per prefix of its namespace, one for
its key (hashes: a LangGraph label is case-sensitive and any length, a tag is neither), so
``get`` and ``search`` without a query are a filtered listing and ``search`` with a query is a
recall kept to the prefix. A ``put`` goes through the memory write path: a value whose text
restates an active memory reinforces it (both keys then read that memory); putting a new value
on a key archives the old one first, and ``delete`` archives (Hippograph's forget: the history
keeps it). TTLs are not supported (``supports_ttl`` is False); ``index`` is ignored: every memory
is embedded.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from hippograph.client import Client, InvalidInput, Memory, MemoryFilter, NewMemory, Source

TEXT_FIELDS = ("content", "text", "data", "memory")
SNIPPET_CHARS = 2000  # the server's limit on source.snippet
MAX_DEPTH = 30  # a memory holds at most 32 tags: the store's, one per prefix, the key's
PAGE = 500  # the server's largest page of memories
SCAN_PAGES = 20  # list_namespaces reads at most this many pages (10,000 items)
RECALL_K = 200  # the server's largest k: a search keeps the prefix's items among these


class HippographStore(BaseStore):
    """LangGraph's long-term store over one Hippograph namespace (the client's).

    memory: the client (its namespace and API key are the store's). tag: the tag every item of
    this store carries (two stores in one namespace: two tags). text_fields: the value fields
    whose string is the memory's text, first found wins. memory_type: the items' memory type.
    """

    supports_ttl = False

    def __init__(
        self,
        memory: Client,
        *,
        tag: str = "langgraph",
        text_fields: Sequence[str] = TEXT_FIELDS,
        memory_type: str = "fact",
    ) -> None:
        self.memory = memory
        self.tag = tag
        self.text_fields = tuple(text_fields)
        self.memory_type = memory_type

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return [self._apply(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # One implementation of the operations: the sync client in a worker thread keeps the
        # event loop free, as LangGraph's own sync-backed stores do.
        return await asyncio.to_thread(self.batch, list(ops))

    def _apply(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            found = self._find(op.namespace, op.key)
            return None if found is None else self._item(found)
        if isinstance(op, PutOp):
            self._put(op)
            return None
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._namespaces(op)
        raise ValueError(f"unknown store operation: {type(op).__name__}")

    # --- put and delete -------------------------------------------------------------------

    def _put(self, op: PutOp) -> None:
        if len(op.namespace) > MAX_DEPTH:
            raise InvalidNamespaceError(
                f"namespace has {len(op.namespace)} labels; Hippograph keeps at most {MAX_DEPTH}"
            )
        old = self._find(op.namespace, op.key)
        if op.value is None:
            if old is not None:
                self.memory.forget(old.id, reason="deleted from the LangGraph store")
            return
        content, snippet = self._encode(op.namespace, op.key, op.value)
        if old is not None and old.content == content and old.source.snippet == snippet:
            return
        if old is not None:
            self.memory.forget(old.id, reason="replaced by a put to the LangGraph store")
        tags = self._tags(op.namespace, op.key)
        new = NewMemory(
            content=content,
            memory_type=self.memory_type,
            tags=tags,
            source=Source(snippet=snippet),
        )
        result = self.memory.remember(new)[0]
        if not result.created and not set(tags) <= set(result.memory.tags):
            self.memory.tag(result.memory.id, *tags)  # restated: that memory answers for it

    def _encode(
        self, namespace: tuple[str, ...], key: str, value: Mapping[str, Any]
    ) -> tuple[str, str]:
        field = next((f for f in self.text_fields if isinstance(value.get(f), str)), None)
        rest = {k: v for k, v in value.items() if k != field}
        content = value[field] if field else json.dumps(value, ensure_ascii=False, sort_keys=True)
        snippet = json.dumps(
            {"ns": list(namespace), "key": key, "field": field, "rest": rest if field else {}},
            ensure_ascii=False,
            sort_keys=True,
        )
        if len(snippet) > SNIPPET_CHARS:
            raise InvalidInput(
                "value",
                f"its namespace, key and fields other than the text take {len(snippet)} "
                f"characters as JSON; the limit is {SNIPPET_CHARS}",
                limit=SNIPPET_CHARS,
            )
        return content, snippet

    # --- reading --------------------------------------------------------------------------

    def _find(self, namespace: tuple[str, ...], key: str) -> Memory | None:
        flt = MemoryFilter(tag=self._key_tag(namespace, key))
        items = self.memory.memories(flt, first=1).items
        return items[0] if items else None

    def _search(self, op: SearchOp) -> list[SearchItem]:
        wanted = op.offset + op.limit
        if op.query:
            prefix = self._prefix_tag(op.namespace_prefix)
            recalled = self.memory.recall(op.query, k=RECALL_K, include_gap=True).items
            scored: Iterable[tuple[Memory, float | None]] = (
                (r.memory, r.score) for r in recalled if prefix in r.memory.tags
            )
        else:
            scored = ((m, None) for m in self._listing(op.namespace_prefix))
        found: list[SearchItem] = []
        for memory, score in scored:
            item = self._item(memory, score)
            if _matches(item.value, op.filter or {}):
                found.append(item)
                if len(found) == wanted:
                    break
        return found[op.offset :]

    def _listing(self, prefix: tuple[str, ...], pages: int | None = None) -> Iterator[Memory]:
        """The active items under ``prefix``, newest first, page by page."""
        flt = MemoryFilter(tag=self._prefix_tag(prefix))
        after: str | None = None
        read = 0
        while pages is None or read < pages:
            page = self.memory.memories(flt, first=PAGE, after=after)
            read += 1
            yield from page.items
            if page.next_cursor is None:
                return
            after = page.next_cursor

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        seen: set[tuple[str, ...]] = set()
        for memory in self._listing((), pages=SCAN_PAGES):
            namespace = self._item(memory).namespace
            if all(_match(namespace, c) for c in op.match_conditions or ()):
                seen.add(namespace[: op.max_depth] if op.max_depth else namespace)
        return sorted(seen)[op.offset : op.offset + op.limit]

    def _item(self, memory: Memory, score: float | None = None) -> SearchItem:
        meta = json.loads(memory.source.snippet or "{}")
        field = meta.get("field")
        value = {**meta.get("rest", {}), field: memory.content} if field else _json(memory)
        return SearchItem(
            namespace=tuple(meta.get("ns", ())),
            key=str(meta.get("key", memory.id)),
            value=value,
            created_at=memory.created_at,  # type: ignore[arg-type]  # Item parses ISO text
            updated_at=memory.updated_at,  # type: ignore[arg-type]
            score=score,
        )

    # --- tags -----------------------------------------------------------------------------

    def _tags(self, namespace: tuple[str, ...], key: str) -> tuple[str, ...]:
        prefixes = [self._prefix_tag(namespace[:i]) for i in range(len(namespace) + 1)]
        return (*prefixes, self._key_tag(namespace, key))

    def _prefix_tag(self, prefix: tuple[str, ...]) -> str:
        return f"{self.tag}-ns-{_digest(prefix)}" if prefix else self.tag

    def _key_tag(self, namespace: tuple[str, ...], key: str) -> str:
        return f"{self.tag}-key-{_digest((*namespace, key))}"


def _digest(labels: tuple[str, ...]) -> str:
    return hashlib.sha256(json.dumps(labels).encode("utf-8")).hexdigest()[:32]


def _json(memory: Memory) -> dict[str, Any]:
    try:
        value = json.loads(memory.content)
    except ValueError:  # redacted or rewritten by the write path: no longer JSON
        return {"content": memory.content}
    return value if isinstance(value, dict) else {"content": memory.content}


_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "$eq": lambda a, b: a == b,
    "$ne": lambda a, b: a != b,
    "$gt": lambda a, b: a is not None and a > b,
    "$gte": lambda a, b: a is not None and a >= b,
    "$lt": lambda a, b: a is not None and a < b,
    "$lte": lambda a, b: a is not None and a <= b,
}


def _matches(value: Mapping[str, Any], flt: Mapping[str, Any]) -> bool:
    """LangGraph's filter: exact values, or ``{"$gt": 3}``-style comparisons, per field."""
    for name, want in flt.items():
        have = value.get(name)
        if isinstance(want, dict) and want and set(want) <= set(_OPERATORS):
            try:
                if not all(_OPERATORS[op](have, arg) for op, arg in want.items()):
                    return False
            except TypeError:  # compared across types: not a match
                return False
        elif have != want:
            return False
    return True


def _match(namespace: tuple[str, ...], condition: MatchCondition) -> bool:
    path = condition.path
    if not path:
        return True
    if len(path) > len(namespace):
        return False
    part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[-len(path) :]
    return all(p in ("*", n) for p, n in zip(path, part, strict=True))
