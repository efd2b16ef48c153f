"""The Cypher loader: one statement per file under ``hippograph/cypher``.

``load(name, backend)`` resolves ``cypher/<backend>/<name>.cypher`` before ``cypher/<name>.cypher``
(ArcadeDB schema DDL is ArcadeDB SQL, ``cypher/arcadedb/<name>.sql``, because its Cypher has no
vector or full-text index DDL). Values travel only as ``$parameters``; the single exception is an
integer index dimension, substituted by ``render`` after validation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import LiteralString

from hippograph.graph.errors import QueryNotFound

ROOT = Path(__file__).resolve().parents[2] / "cypher"
BACKENDS = ("arcadedb", "neo4j")
_NAME = re.compile(r"^[a-z0-9_]+(/[a-z0-9_]+)*$")
_TOKEN = re.compile(r"\{\{(\w+)\}\}")


@dataclass(frozen=True)
class Query:
    name: str
    text: LiteralString
    language: str  # "cypher" or "sql"
    path: Path


@cache
def load(name: str, backend: str) -> Query:
    """Return the statement called ``name`` for ``backend``; raise QueryNotFound otherwise."""
    if not _NAME.match(name) or backend not in BACKENDS:
        raise QueryNotFound(f"no query named {name!r} for backend {backend!r}")
    candidates = [
        (ROOT / backend / f"{name}.cypher", "cypher"),
        (ROOT / backend / f"{name}.sql", "sql"),
        (ROOT / f"{name}.cypher", "cypher"),
    ]
    for path, language in candidates:
        if path.is_file():
            # Trusted text from our own package files; mypy treats LiteralString as str.
            text: LiteralString = path.read_text(encoding="utf-8").strip().rstrip(";")
            return Query(name, text, language, path)
    raise QueryNotFound(f"no query named {name!r} for backend {backend!r} under {ROOT}")


def render(query: Query, **ints: int) -> LiteralString:
    """Substitute ``{{token}}`` placeholders, which may only carry validated integers."""

    def sub(match: re.Match[str]) -> str:
        key = match.group(1)
        value = ints.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 65536:
            raise QueryNotFound(f"{query.name}: placeholder {key!r} needs an integer 1..65536")
        return str(value)

    rendered: LiteralString = _TOKEN.sub(sub, query.text)
    return rendered


def all_names() -> list[str]:
    """Every statement name, shared or backend-specific (used by the contract tests)."""
    names: set[str] = set()
    for path in ROOT.rglob("*"):
        if path.suffix not in (".cypher", ".sql"):
            continue
        rel = path.relative_to(ROOT).with_suffix("")
        parts = rel.parts[1:] if rel.parts[0] in BACKENDS else rel.parts
        names.add("/".join(parts))
    return sorted(names)


def backend_only(backend: str) -> list[str]:
    """Names that exist only as an override of ``backend`` with neither a shared file nor a twin."""
    result = []
    for name in all_names():
        own = any((ROOT / backend / f"{name}{ext}").is_file() for ext in (".cypher", ".sql"))
        shared = (ROOT / f"{name}.cypher").is_file()
        others = [b for b in BACKENDS if b != backend]
        twin = all(
            any((ROOT / o / f"{name}{ext}").is_file() for ext in (".cypher", ".sql"))
            for o in others
        )
        if own and not shared and not twin:
            result.append(name)
    return result
