"""The graph's notifications, as an operator should see them: one line each, once.

The neo4j driver logs every notification the server sends with a statement (logger
``neo4j.notifications``: WARNING severity at WARNING, INFORMATION at INFO) with the whole
statement text; a deprecation in a recall statement made one ~3 KB record a recall on Neo4j
5.26. What the server sends is narrowed first by the driver's options (``Settings.graph``:
classifications turned off, a minimum severity); ``Digest`` then logs each kind of notification
once per statement and process, in one line that names the statement file instead of quoting it.
"""

from __future__ import annotations

import logging
import threading
from functools import cache
from typing import Any

from hippograph.graph.errors import QueryNotFound
from hippograph.graph.store import queries

LOGGER = "neo4j.notifications"
# Distinct (statement, status) pairs remembered; past it, repeats are logged again.
MAX_SEEN = 1000


@cache
def _names() -> dict[str, str]:
    """Statement text -> its file's name, over both backends."""
    found: dict[str, str] = {}
    for name in queries.all_names():
        for backend in queries.BACKENDS:
            try:
                found.setdefault(queries.load(name, backend).text, name)
            except QueryNotFound:
                continue
    return found


def statement_name(text: str) -> str | None:
    """The statement file ``text`` was loaded from (an ``EXPLAIN`` prefix ignored), or None."""
    return _names().get(text.removeprefix("EXPLAIN ").removeprefix("PROFILE "))


class Digest(logging.Filter):
    """Lets the first of each notification through per statement, rewritten to one line."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._seen: set[tuple[str, str]] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        printer = record.args[0] if isinstance(record.args, tuple) and record.args else None
        notification: Any = getattr(printer, "notification", None)
        if notification is None:
            return True
        query = str(getattr(printer, "query", None) or "")
        where = statement_name(query) or " ".join(query.split())[:80]
        key = (where, str(notification.gql_status))
        with self._lock:
            if key in self._seen:
                return False
            if len(self._seen) >= MAX_SEEN:
                self._seen.clear()
            self._seen.add(key)
        record.msg = "graph notification %s (%s) in %s: %s (logged once per statement)"
        record.args = (
            notification.gql_status,
            getattr(notification.classification, "name", notification.classification),
            where,
            " ".join(str(notification.status_description).split()),
        )
        return True


_INSTALLED: list[Digest] = []
_INSTALL_LOCK = threading.Lock()


def install() -> Digest:
    """Put one ``Digest`` on the driver's notification logger (idempotent); return it."""
    with _INSTALL_LOCK:
        if not _INSTALLED:
            digest = Digest()
            logging.getLogger(LOGGER).addFilter(digest)
            _INSTALLED.append(digest)
    return _INSTALLED[0]
