"""A scoped export: what one caller sees of a namespace, scoped as recall is (``validate.visible``).

``lines``: the namespace's export (``transfer.export_lines``) less every memory the caller does
not see and every line that names one: its edges (to memories, episodes, entities, runs), the
decision records about it, the edits naming it, the relationships between entities read from
it; in the remember log its item is replaced by the marker erasure leaves
(``erasure.ERASED_ITEM``, without its id), so the other items keep their places and ids.
Turns, runs, tags, clusters and tombstones (hashes, never text) stay: they belong to no memory
scope. Such an export is a view, not a backup: imported, it holds only what the caller saw.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from hippograph.graph import transfer
from hippograph.graph.store.store import Store
from hippograph.graph.write.erasure import ERASED_ITEM, strings
from hippograph.graph.write.ids import remembered


def lines(store: Store, namespace: str, scopes: Sequence[str]) -> Iterator[dict[str, Any]]:
    """The export of ``namespace`` as a caller with the scope keys ``scopes`` sees it."""
    hidden = hidden_ids(store, namespace, scopes)
    yield from without(transfer.export_lines(store, namespace), hidden)


def hidden_ids(store: Store, namespace: str, scopes: Sequence[str]) -> set[str]:
    """The ids of the memories of ``namespace`` a caller with ``scopes`` does not see."""
    rows = store.read("export/hidden_ids", namespace=namespace, scopes=list(scopes))
    return {str(r["id"]) for r in rows}


def without(records: Iterable[dict[str, Any]], hidden: set[str]) -> Iterator[dict[str, Any]]:
    """``records`` less what names a memory of ``hidden`` (module docstring)."""
    for line in records:
        kept = _kept(line, hidden)
        if kept is not None:
            yield kept


def _kept(line: dict[str, Any], hidden: set[str]) -> dict[str, Any] | None:
    kind, props = line.get("kind"), line.get("props") or {}
    if kind == "memory":
        return None if props.get("id") in hidden else line
    if kind == "edge":
        named = {line.get("from_id"), line.get("to_key"), props.get("source")}
        return None if named & hidden else line
    if kind == "decision":
        return None if {props.get("memory_id"), props.get("target_id")} & hidden else line
    if kind == "edit_event":
        return None if hidden & strings(json.loads(props.get("args") or "{}")) else line
    if kind == "remember_event":
        items = list(props.get("items") or [])
        ids = list(props.get("ids") or remembered(str(props["namespace"]), str(props["id"]),
                                                   len(items)))  # fmt: skip
        if not hidden & set(ids):
            return line
        scrubbed = [
            ERASED_ITEM if i in hidden else item for item, i in zip(items, ids, strict=True)
        ]
        kept_ids = ["" if i in hidden else i for i in ids]  # a marker's id is never read
        return {**line, "props": {**props, "items": scrubbed, "ids": kept_ids}}
    return line
