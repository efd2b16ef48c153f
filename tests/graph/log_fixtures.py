"""Shared helpers for the episode, decision, consolidation and rebuild tests."""

from __future__ import annotations

from collections.abc import Iterator

from hippograph.graph import memories
from hippograph.graph.model import Memory, MemoryFilter, NewMemory
from hippograph.graph.runtime import Runtime
from hippograph.graph.store.store import Store
from hippograph.graph.write import episodes, writepath

LABELS = ("Episode", "Decision", "RememberEvent", "EditEvent")


def log_runtime(runtime: Runtime, namespace: str) -> Iterator[Runtime]:
    """The embedded runtime; the log's nodes of the namespace are wiped afterwards (the shared
    fixture wipes them too: this keeps the log tests' cleanup explicit)."""
    yield runtime
    wipe_log(runtime.store, namespace)


def wipe_log(store: Store, namespace: str) -> None:
    for label in LABELS:
        store.driver.execute_query(
            f"MATCH (n:{label}) WHERE n.namespace = $ns DETACH DELETE n",  # label: fixed set
            ns=namespace,
            database_=store.database,
        )


def active(rt: Runtime, ns: str) -> list[Memory]:
    return list(memories.list_memories(rt.store, ns, MemoryFilter(), first=500).items)


def every(rt: Runtime, ns: str) -> list[Memory]:
    return list(memories.list_memories(rt.store, ns, MemoryFilter(status=None), first=500).items)


def remember(rt: Runtime, ns: str, *items: NewMemory) -> list[memories.RememberResult]:
    return writepath.remember(rt.store, rt.embedder, ns, list(items), policy=rt.policy)


def turn(session: str, index: int, text: str, speaker: str = "Sam") -> episodes.NewTurn:
    return episodes.NewTurn(
        session_id=session,
        turn_index=index,
        speaker=speaker,
        text=text,
        timestamp=f"2024-01-{index % 28 + 1:02d}T10:00:00Z",
    )
