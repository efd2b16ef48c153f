"""Export and import as JSON Lines: every node and edge with all its properties, so a round trip
through a fresh store is exact (embeddings included).

Line kinds: ``header``, ``tag``, ``cluster``, ``tombstone``, ``memory``, ``episode`` (the raw
conversation log), ``decision`` (the write path's decisions, for ``history``), ``remember_event``
(the explicit remembers ``rebuild`` replays), ``edit_event`` (the edits it replays), ``entity``
(people, places and things: `graph.entities`), ``run``, ``step`` and ``tool_call`` (agent
runs: `graph.runs`; a step or call names its run, and import links them again), ``edge``. An
edge to an episode carries ``to_label: Episode``, one between entities (RELATED, SAME_AS)
``to_label: Entity``, one from a memory to the run it was distilled from ``to_label: Run``. Import
applies nodes first and edges last, so the order of lines inside a file does not matter. A
namespace's vocabulary (``Word`` nodes, `graph.vocabulary`) is derived from its memories and not
exported: the target store's ``vocabulary`` job builds it.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from hippograph.graph import validate
from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import now_iso, scope_key
from hippograph.graph.store.store import Store, vector
from hippograph.graph.text import fulltext, standing

log = logging.getLogger(__name__)

FORMAT_VERSION = 1
# A memory record's words of context (`_indexed`); an export without them imports as before.
CONTEXT_WORDS = "context_words"
PAGE = 500
Progress = Callable[[int], None]

_NODE_FILES = {
    "tag": "import/tags",
    "cluster": "import/clusters",
    "tombstone": "import/tombstones",
    "memory": "import/memories",
    "episode": "import/episodes",
    "decision": "import/decisions",
    "remember_event": "import/remember_events",
    "edit_event": "import/edit_events",
    "entity": "import/entities",
    "run": "import/runs",  # before their steps, and steps before their tool calls
    "step": "import/steps",
    "tool_call": "import/tool_calls",
}
DERIVED = frozenset({"ft_terms", "vocabulary", "applies_when", "standing_in"})
# Paged by their key: (kind, export statement, key property).
_LOGS = (
    ("episode", "export/episodes", "uid"),
    ("decision", "export/decisions", "id"),
    ("remember_event", "export/remember_events", "id"),
    ("edit_event", "export/edit_events", "id"),
)
_EDGE_FILES = {
    "HAS_TAG": "import/edge_has_tag",
    "IN_CLUSTER": "import/edge_in_cluster",
    "RELATES_TO": "import/edge_relates_to",
    "SUPERSEDES": "import/edge_supersedes",
    "CONTRADICTS": "import/edge_contradicts",
    "DERIVED_FROM": "import/edge_derived_from",
    "MERGED_INTO": "import/edge_merged_into",
    "DERIVED_FROM:Episode": "import/edge_derived_from_episode",
    "DERIVED_FROM:Run": "import/edge_derived_from_run",
    "NEXT:Episode": "import/edge_next",
    "MENTIONS": "import/edge_mentions",
    "RELATED:Entity": "import/edge_related",
    "SAME_AS:Entity": "import/edge_same_as",
}


def export_lines(store: Store, namespace: str | None = None) -> Iterator[dict[str, Any]]:
    """Every record of one namespace (or of all), as dicts ready for ``json.dumps``."""
    if namespace is not None:
        validate.namespace(namespace)
    yield {
        "kind": "header",
        "version": FORMAT_VERSION,
        "exported_at": now_iso(),
        "namespace": namespace,
    }
    for kind, name in (
        ("tag", "export/tags"),
        ("cluster", "export/clusters"),
        ("tombstone", "export/tombstones"),
        ("entity", "export/entities"),
    ):
        for row in store.read(name, namespace=namespace):
            yield {"kind": kind, "props": row["props"]}
    after = ""
    while True:
        rows = store.read("export/memories", namespace=namespace, after=after, limit=PAGE)
        if not rows:
            break
        ids = [r["props"]["id"] for r in rows]
        for row in rows:
            # Derived, not exported: its full-text words (from its content and context) and its
            # vocabulary stamp (the target store's vocabulary job adds its words there).
            props = {k: v for k, v in row["props"].items() if k not in DERIVED}
            context = fulltext.context_of(
                str(props.get("namespace")),
                str(props.get("content") or ""),
                row["props"].get("ft_terms"),
            )
            if context:
                props[CONTEXT_WORDS] = context
            yield {"kind": "memory", "props": props}
        for edge in store.read("export/memory_edges", ids=ids):
            yield _edge(edge)
        after = ids[-1]
    for edge in store.read("export/entity_edges", namespace=namespace):
        yield _edge(edge)
    yield from _export_runs(store, namespace)
    for kind, name, key in _LOGS:
        yield from _export_log(store, namespace, kind, name, key)


def _export_log(
    store: Store, namespace: str | None, kind: str, name: str, key: str
) -> Iterator[dict[str, Any]]:
    after = ""
    while rows := store.read(name, namespace=namespace, after=after, limit=PAGE):
        keys = [r["props"][key] for r in rows]
        for row in rows:
            yield {"kind": kind, "props": row["props"]}
        if kind == "episode":
            for edge in store.read("export/episode_edges", uids=keys):
                yield _edge({**edge, "to_label": "Episode"})
        after = keys[-1]


def _export_runs(store: Store, namespace: str | None) -> Iterator[dict[str, Any]]:
    after = ""
    while rows := store.read("export/runs", namespace=namespace, after=after, limit=PAGE):
        ids = [r["props"]["id"] for r in rows]
        for row in rows:
            yield {"kind": "run", "props": row["props"]}
        for kind, name in (("step", "export/run_steps"), ("tool_call", "export/run_tool_calls")):
            for row in store.read(name, ids=ids):
                yield {"kind": kind, "props": row["props"]}
        after = ids[-1]


def _edge(row: dict[str, Any]) -> dict[str, Any]:
    line = {
        "kind": "edge",
        "type": row["type"],
        "from_id": row["from_id"],
        "to_key": row["to_key"],
        "props": row["props"],
    }
    if row.get("to_label"):
        line["to_label"] = row["to_label"]
    return line


def export_to(
    store: Store,
    out: IO[str],
    namespace: str | None = None,
    progress: Progress | None = None,
    *,
    lines: Iterable[dict[str, Any]] | None = None,
) -> dict[str, int]:
    """Write ``lines`` (default: ``export_lines`` of ``namespace``) as JSON Lines to ``out``;
    the count of each kind written."""
    counts: dict[str, int] = {}
    for line in export_lines(store, namespace) if lines is None else lines:
        out.write(json.dumps(line, separators=(",", ":"), sort_keys=True) + "\n")
        counts[line["kind"]] = counts.get(line["kind"], 0) + 1
        if progress is not None and line["kind"] == "memory":
            progress(1)
    counts.pop("header", None)
    return counts


def import_from(
    store: Store, lines: Iterable[str], progress: Progress | None = None
) -> dict[str, int]:
    """Load an export into ``store`` (idempotent: nodes are merged by id)."""
    nodes: dict[str, list[dict[str, Any]]] = {k: [] for k in _NODE_FILES}
    edges: dict[str, list[dict[str, Any]]] = {k: [] for k in _EDGE_FILES}
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        record = _parse(raw, number)
        kind = record.get("kind")
        if kind == "header":
            if record.get("version") != FORMAT_VERSION:
                raise InvalidInput(
                    f"line {number}.version", f"must be {FORMAT_VERSION}", limit=FORMAT_VERSION
                )
        elif kind == "memory":
            nodes[kind].append(_indexed(_scoped(record["props"]), number))
        elif kind in nodes:
            nodes[kind].append(record["props"])
        elif kind == "edge" and _edge_kind(record) in edges:
            edges[_edge_kind(record)].append({k: record[k] for k in ("from_id", "to_key", "props")})
        else:
            raise InvalidInput(
                f"line {number}.kind", f"unknown record {kind!r} / {record.get('type')!r}"
            )
    counts: dict[str, int] = {}
    for kind, rows in nodes.items():
        _apply(store, _NODE_FILES[kind], rows, progress if kind == "memory" else None)
        counts[kind] = len(rows)
    for kind, rows in edges.items():
        _apply(store, _EDGE_FILES[kind], rows, None)
        counts[f"edge:{kind}"] = len(rows)
    embedded = next((m["embedding"] for m in nodes["memory"] if m.get("embedding")), None)
    if embedded is not None:
        started = time.perf_counter()
        store.read("import/vector_index_ready", embedding=vector(embedded))
        log.info("vector index ready for the import in %.1fs", time.perf_counter() - started)
    return counts


def _scoped(props: Any) -> Any:
    """A memory line without its scope key (made by hand) is given it, so that recall, which
    tests that key (`model.scopes`), sees the memory as its scope, project and session say."""
    if not isinstance(props, dict) or "scope_key" in props:
        return props
    key = scope_key(props.get("scope"), props.get("project"), props.get("session_id"))
    return props if key is None else {**props, "scope_key": key}


def _indexed(props: Any, number: int) -> Any:
    """A memory's full-text words are derived, not exported: made again on import, for the
    namespace it lands in and by this version's words, from its content and the context words
    it was indexed by (`CONTEXT_WORDS`, not a property of the node: the words of the turn said
    before it in its session when it was written, `write.context`, which the export alone no
    longer tells: a turn forgotten since, or one that arrived late)."""
    if not isinstance(props, dict):
        return props
    context = props.pop(CONTEXT_WORDS, "")
    if not isinstance(context, str):
        raise InvalidInput(f"line {number}.props.{CONTEXT_WORDS}", "must be a string of words")
    content, namespace = props.get("content"), props.get("namespace")
    if isinstance(content, str) and isinstance(namespace, str):
        derived = {k: v for k, v in standing.props(namespace, content).items() if v is not None}
        return {**props, "ft_terms": fulltext.indexed(namespace, content, context), **derived}
    return props


def _edge_kind(record: dict[str, Any]) -> str:
    label = record.get("to_label")
    return f"{record.get('type')}:{label}" if label else str(record.get("type"))


def _apply(store: Store, name: str, rows: list[dict[str, Any]], progress: Progress | None) -> None:
    for start in range(0, len(rows), PAGE):
        chunk = rows[start : start + PAGE]
        store.write(name, rows=chunk)
        if progress is not None:
            progress(len(chunk))


def _parse(raw: str, number: int) -> dict[str, Any]:
    try:
        record = json.loads(raw)
    except ValueError as exc:
        raise InvalidInput(f"line {number}", f"is not JSON: {exc}") from None
    if not isinstance(record, dict):
        raise InvalidInput(f"line {number}", "must be a JSON object")
    return record
