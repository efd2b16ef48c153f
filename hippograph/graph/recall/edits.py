"""Edits after the fact, replayed: what ``rebuild`` does with each ``EditEvent`` of the log
(``memories.log_edit`` appends them: supersede, link, tag, untag, feedback).

An edit is applied through the same function that made it, without logging it again. One whose
memories did not come back (forgotten since, or extracted differently by an LLM) or that no
longer applies (a supersede that would now close a cycle) is skipped and counted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hippograph.graph import memories
from hippograph.graph.errors import HippographError
from hippograph.graph.model import parse_iso
from hippograph.graph.recall import feedback
from hippograph.graph.store.store import Row, Store


@dataclass(frozen=True, kw_only=True)
class Edit:
    id: str
    at: str
    kind: str
    args: dict[str, Any]


def of(row: Row) -> Edit:
    return Edit(id=row["id"], at=row["at"], kind=row["kind"], args=json.loads(row["args"]))


def logged(store: Store, namespace: str) -> list[Edit]:
    """The namespace's edits in the order they were made."""
    return [of(r) for r in store.read("edit/list", namespace=namespace)]


def replay(store: Store, namespace: str, row: Row) -> str:
    """``apply`` for a row of ``edit/list`` (what ``rebuild`` is given)."""
    return apply(store, namespace, of(row))


def apply(store: Store, namespace: str, edit: Edit) -> str:
    """Apply one logged edit again; returns ``edit_<kind>`` or ``edit_skipped``."""
    a = edit.args
    try:
        if edit.kind == "supersede":
            memories.supersede(store, namespace, a["old_id"], a["new_id"], reason=a["reason"],
                               log=False)  # fmt: skip
        elif edit.kind == "link":
            memories.link(store, namespace, a["from_id"], a["to_id"], a["relation"],
                          weight=a["weight"], confidence=a["confidence"], kind=a["kind"],
                          log=False)  # fmt: skip
        elif edit.kind == "tag":
            memories.tag(store, namespace, a["memory_id"], a["names"], log=False)
        elif edit.kind == "untag":
            memories.untag(store, namespace, a["memory_id"], a["names"], log=False)
        elif edit.kind == "feedback":
            feedback.feedback(store, namespace, a["memory_id"], a["helpful"],
                              parse_iso(a["at"]), log=False)  # fmt: skip
        else:
            return "edit_skipped"
    except HippographError:
        return "edit_skipped"
    return f"edit_{edit.kind}"
