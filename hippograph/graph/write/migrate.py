"""Start-up passes over every memory, once per store: a property derived from others (its
content, its scope) that a store written before (or by another version) lacks is given to each
memory, a page at a time in id order, and the pass is marked done (a `Migration` node) so later
starts skip it. Three such passes: the full-text words keyed by namespace (`rekey`,
`text.fulltext`), the standing-instruction conditions (`standing`, `text.standing`) and the
scope keys (`scope_keys`)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from hippograph.graph.model import now_iso, scope_key
from hippograph.graph.store.store import Row, Store
from hippograph.graph.text import fulltext
from hippograph.graph.text import standing as instructions

log = logging.getLogger(__name__)

PAGE = 1_000
# The migrations' names: a store marked done with one skips it at start-up.
REKEY = f"fulltext_terms:{fulltext.VERSION}"
STANDING = "standing-conditions-v5"
SCOPE_KEYS = "scope-keys-v1"


def over_texts(
    store: Store,
    migration: str,
    statement: str,
    update: Callable[[Row], dict[str, object] | None],
    what: str,
) -> int:
    """Run ``migration`` unless done: each memory's row of `migration/memory_text_page` (id,
    namespace, content, ft_terms) to ``update``, whose answers (None: nothing to change) are
    written with ``statement``; ``what`` names the pass in the log. Returns how many memories
    were changed (0 when already done)."""
    return _over_memories(store, migration, "migration/memory_text_page", statement, update, what)


def scope_keys(store: Store) -> int:
    """Give every memory without one its ``scope_key`` (`model.scope_key`: what recall's
    ``$scopes`` are tested against), once per store: run at start-up, before the service
    answers. The write path has always set it; a memory made otherwise (by hand, an import
    line without it) is then seen by the same recalls as when recall read scope, project and
    session_id. Returns how many memories were changed (0 when already done)."""

    def update(row: Row) -> dict[str, object] | None:
        if row["scope_key"] is not None:
            return None
        key = scope_key(row["scope"], row["project"], row["session_id"])
        return None if key is None else {"id": row["id"], "scope_key": key}

    page = "migration/memory_scope_page"
    return _over_memories(store, SCOPE_KEYS, page, "memory/set_scope_key", update, "scope keys")


def _over_memories(
    store: Store,
    migration: str,
    page: str,
    statement: str,
    update: Callable[[Row], dict[str, object] | None],
    what: str,
) -> int:
    """``over_texts`` over the rows of ``page`` (a statement paging every memory by id)."""
    if store.read("migration/get", migration=migration)[0]["done_at"] is not None:
        return 0
    started = time.perf_counter()
    seen = changed = 0
    after = ""
    while rows := store.read(page, after=after, limit=PAGE):
        updates = [u for u in map(update, rows) if u is not None]
        if updates:
            store.write(statement, rows=updates)
        seen += len(rows)
        changed += len(updates)
        after = rows[-1]["id"]
        log.info("%s: %d memories read, %d changed", what, seen, changed)
    store.write("migration/done", migration=migration, now=now_iso())
    log.info("%s: %d of %d memories in %.1fs", what, changed, seen, time.perf_counter() - started)
    return changed


def rekey(store: Store) -> int:
    """Give every memory its ``ft_terms`` of `fulltext.VERSION`, once per store (a store written
    before words were keyed by namespace, or by another version): run at start-up, before
    the service answers. Returns how many memories were changed (0 when already done)."""

    def update(row: Row) -> dict[str, object] | None:
        namespace, content = str(row["namespace"]), str(row["content"] or "")
        context = fulltext.context_of(namespace, content, row["ft_terms"])
        wanted = fulltext.indexed(namespace, content, context)
        return {"id": row["id"], "ft_terms": wanted} if row["ft_terms"] != wanted else None

    what = "full-text words keyed by namespace"
    return over_texts(store, REKEY, "memory/set_terms", update, what)


def standing(store: Store) -> int:
    """Derive every memory's ``applies_when`` again with the rules of this version, once per
    store: run at start-up, before the service answers. A memory the rules no longer read as
    standing loses its condition. Returns how many memories changed (0 when already done)."""

    def update(row: Row) -> dict[str, Any] | None:
        found = instructions.props(str(row["namespace"]), str(row["content"] or ""))
        return {"id": row["id"], **found} if found["applies_when"] != row["applies_when"] else None

    return over_texts(store, STANDING, "memory/set_standing", update, "standing instructions")
