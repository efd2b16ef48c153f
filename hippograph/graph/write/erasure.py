"""Erasure: a turn, a session, or a subject, gone from everything the service derived.

What is erased, in one transaction:

- the turns chosen (by id, by session, or containing a text) and the turns the chosen
  memories were derived from (their words came from there);
- the agent runs of the session, those holding the text (task, outcome, a step, a tool call's
  arguments, result or error) and those the chosen memories were distilled from, with their
  steps and tool calls;
- the memories chosen (by id, or containing a text) and the memories derived from erased
  turns or distilled from erased runs (experience, warnings), except one that another
  surviving source confirms: a turn or a run that is not erased, or an explicit ``remember``
  of it. Such a memory stays, without its links to the erased turns
  (the user said it elsewhere too; erase it by id or text to take it as well);
- decision records about them (action, time and ids stay; content and reason go), the
  items of ``RememberEvent`` log entries that made them (replaced by a marker, so ``rebuild``
  replays the rest under their ids), the edits naming them, gaps whose context holds an
  erased text, profile entries and skills made from them, their place in the core block,
  the labels of their clusters, tags and entities left without a memory, relationships
  between entities read from them, and their words in the
  namespace's vocabulary (after the commit, as a hard ``forget`` does).

Each erased memory leaves a tombstone (hashes and embedding, never the text: a restatement
or paraphrase of it stays out); each erased turn leaves only its hash (``append.fingerprint``:
a transcript sent again does not bring it back). ``rebuild`` replays the log, which no longer
holds them. The audit trail records the call (who, when, outcome), never the text.

On the embedded engine the indexes whose keys are words (full-text terms, vocabulary, tags)
are rebuilt afterwards (``Store.compact``): a deleted record's bytes leave its bucket page at
once, but an index keeps a deleted key until rebuilt; the engine's transaction log keeps
recent writes until the engine closes (docs/operations.md, Erasure on disk).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from hippograph.graph import entities, validate, vocabulary
from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import ToolCall, ToolResult, body_hash, now_iso
from hippograph.graph.store.store import Row, Store, Tx
from hippograph.graph.text import fulltext
from hippograph.graph.write import append, ids
from hippograph.graph.write.messages import NewTurn

ERASED_ITEM = json.dumps({"erased": True})
MAX_IDS = 1000
MIN_TEXT = 3  # a shorter text would match nearly everything


@dataclass(frozen=True, kw_only=True)
class Erasure:
    """What an erasure removed (or, on a dry run, would remove)."""

    turns: int
    runs: int  # agent runs, with their steps and tool calls
    memories: int
    kept: int  # memories of erased turns or runs that another surviving source confirms
    decisions: int  # decision records scrubbed
    remember_items: int  # items of the remember log replaced by a marker
    edits: int
    gaps: int
    tags: int
    entities: int  # entities no memory mentions any longer, deleted
    words: int
    compacted: bool  # the engine's word indexes were rebuilt (embedded engine only)
    dry_run: bool
    turn_ids: tuple[str, ...]
    memory_ids: tuple[str, ...]
    run_ids: tuple[str, ...] = ()


@dataclass
class _Plan:
    turns: dict[str, Row]  # uid -> turn row
    memories: set[str]
    kept: set[str]
    runs: dict[str, str]  # run id -> its task


def erase(
    store: Store,
    namespace: str,
    *,
    turn_ids: Sequence[str] = (),
    session_id: str | None = None,
    memory_ids: Sequence[str] = (),
    text: str | None = None,
    dry_run: bool = False,
) -> Erasure:
    """Erase turns (``turn_ids``, every turn of ``session_id``), memories (``memory_ids``) and
    everything holding ``text`` (case-insensitive: turns, memories and gaps), with what was
    derived from them (module docstring). ``dry_run``: say what would go, write nothing.
    At least one criterion is required; naming nothing that exists erases nothing."""
    validate.namespace(namespace)
    turn_ids = _ids(turn_ids, "turnIds")
    memory_ids = [validate.memory_id(m, f"memoryIds[{i}]") for i, m in enumerate(memory_ids)]
    if len(memory_ids) > MAX_IDS:
        raise InvalidInput("memoryIds", f"holds more than {MAX_IDS} ids", limit=MAX_IDS)
    session_id = validate.optional_text(session_id, "sessionId")
    needle = None
    if text is not None:
        if len(text.strip()) < MIN_TEXT:
            raise InvalidInput("text", f"must hold at least {MIN_TEXT} characters", limit=MIN_TEXT)
        needle = validate.optional_text(text, "text", 2000)
        needle = needle.lower() if needle else None
    if not (turn_ids or session_id or memory_ids or needle):
        raise InvalidInput("turnIds", "name turns, a session, memories or a text to erase")
    plan = _plan(store, namespace, turn_ids, session_id, memory_ids, needle)
    report = Erasure(
        turns=len(plan.turns), runs=len(plan.runs), memories=len(plan.memories),
        kept=len(plan.kept), decisions=0,
        remember_items=0, edits=0, gaps=0, tags=0, entities=0, words=0, compacted=False,
        dry_run=dry_run,
        turn_ids=tuple(sorted(str(t["id"]) for t in plan.turns.values())),
        memory_ids=tuple(sorted(plan.memories)), run_ids=tuple(sorted(plan.runs)),
    )  # fmt: skip
    if dry_run or not (plan.turns or plan.memories or plan.runs):
        return report
    context = store.read("erase/memory_context", namespace=namespace, ids=sorted(plan.memories))
    counts = store.write_tx(lambda tx: _apply(tx, namespace, plan, context, needle))
    contents = [str(r["content"] or "") for r in context]
    words = vocabulary.prune(store, namespace, contents) if contents else 0
    compacted = store.compact()
    return replace(
        report,
        decisions=counts["decisions"],
        remember_items=counts["remember_items"],
        edits=counts["edits"],
        gaps=counts["gaps"],
        tags=counts["tags"],
        entities=counts["entities"],
        words=words,
        compacted=compacted,
    )


def _ids(values: Sequence[str], field: str) -> list[str]:
    if len(values) > MAX_IDS:
        raise InvalidInput(field, f"holds more than {MAX_IDS} ids", limit=MAX_IDS)
    return [validate.short_text(v, f"{field}[{i}]", 64) for i, v in enumerate(values)]


def _plan(
    store: Store,
    namespace: str,
    turn_ids: list[str],
    session_id: str | None,
    memory_ids: list[str],
    needle: str | None,
) -> _Plan:
    turns = (
        {
            str(r["uid"]): r
            for r in store.read(
                "erase/turns", namespace=namespace, ids=turn_ids, session_id=session_id, text=needle
            )  # fmt: skip
        }
        if (turn_ids or session_id or needle)
        else {}
    )
    memories: set[str] = set()
    if memory_ids or needle:
        rows = store.read("erase/memories", namespace=namespace, ids=memory_ids, text=needle)
        memories = {str(r["id"]) for r in rows}
        sources = sorted({str(u) for r in rows for u in r["sources"]} - set(turns))
        if sources:
            for r in store.read("erase/sources", namespace=namespace, uids=sources):
                turns[str(r["uid"])] = r
    runs: dict[str, str] = {}
    if session_id or memories or needle:
        rows = store.read("erase/runs", namespace=namespace, session_id=session_id,
                          memory_ids=sorted(memories), text=needle)  # fmt: skip
        runs = {str(r["id"]): str(r["task"] or "") for r in rows}
    kept: set[str] = set()
    derived = (
        store.read("erase/derived", namespace=namespace, uids=sorted(turns)) if turns else []
    ) + (
        store.read("erase/run_derived", namespace=namespace, ids=sorted(runs), uids=sorted(turns))
        if runs
        else []
    )
    for r in derived:
        if str(r["id"]) in memories:
            continue
        if int(r["others"]) or int(r["remembered"]):
            kept.add(str(r["id"]))
        else:
            memories.add(str(r["id"]))
    return _Plan(turns=turns, memories=memories, kept=kept - memories, runs=runs)


def _apply(
    tx: Tx, namespace: str, plan: _Plan, context: list[Row], needle: str | None
) -> dict[str, int]:
    now = now_iso()
    erased = sorted(plan.memories)
    uids = sorted(plan.turns)
    decisions = tx.run("erase/decisions", namespace=namespace, ids=erased, uids=uids, now=now)
    mentioned = entities.forget_memories(tx, namespace, erased)
    if context:
        clusters = sorted({str(c) for r in context for c in r["clusters"]})
        if clusters:
            tx.run("erase/cluster_labels", namespace=namespace, ids=clusters)
        rows = [{"id": str(r["id"]), "tombstone_id": str(uuid.uuid4()),
                 "body_hash": body_hash(str(r["content"] or ""))} for r in context]  # fmt: skip
        tx.run("erase/delete_memories", namespace=namespace, rows=rows, now=now)
    _derived_views(tx, namespace, set(erased), now)
    if plan.runs:
        for statement in ("erase/delete_tool_calls", "erase/delete_steps", "erase/delete_runs"):
            tx.run(statement, namespace=namespace, ids=sorted(plan.runs))
    emptied = entities.prune(tx, namespace, mentioned, keep_stated=False)
    tags = sorted({str(t) for r in context for t in r["tags"]})
    dropped = tx.run("erase/empty_tags", namespace=namespace, uids=tags) if tags else []
    if uids:
        tx.run("erase/delete_turns", namespace=namespace, uids=uids)
        hashes = [{"id": str(uuid.uuid4()), "hash": append.fingerprint(namespace, _turn(r))}
                  for r in plan.turns.values()]  # fmt: skip
        tx.run("erase/turn_tombstones", namespace=namespace, rows=hashes, now=now)
        _relink(tx, namespace, sorted({str(r["session_id"]) for r in plan.turns.values()}))
    _reindex(tx, namespace, sorted({str(r["session"]) for r in context if r["session"]}))
    texts = (
        [str(r["text"] or "") for r in plan.turns.values()]
        + [str(r["content"] or "") for r in context]
        + list(plan.runs.values())
    )
    return {
        "decisions": int(decisions[0]["scrubbed"]) if decisions else 0,
        "remember_items": _scrub_remembers(tx, namespace, set(erased), needle),
        "edits": _drop_edits(tx, namespace, set(erased)),
        "gaps": _drop_gaps(tx, namespace, texts, needle),
        "tags": int(dropped[0]["deleted"]) if dropped else 0,
        "entities": emptied,
    }


def _turn(row: Row) -> NewTurn:
    """The stored turn as ``append.fingerprint`` reads it (text and tool parts as stored)."""
    calls = tuple(ToolCall(**c) for c in json.loads(row.get("tool_calls") or "[]"))
    results = tuple(ToolResult(**r) for r in json.loads(row.get("tool_results") or "[]"))
    return NewTurn(session_id=str(row["session_id"]), text=str(row["text"] or ""),
                   tool_calls=calls, tool_results=results)  # fmt: skip


def _relink(tx: Tx, namespace: str, sessions: list[str]) -> None:
    """The turns left in each session chained again in order (``NEXT`` over the gap)."""
    rows = tx.run("erase/session_turns", namespace=namespace, sessions=sessions)
    pairs = [
        {"prev": str(a["uid"]), "next": str(b["uid"])}
        for a, b in zip(rows, rows[1:], strict=False)
        if a["session_id"] == b["session_id"]
    ]
    if pairs:
        tx.run("episode/chain", pairs=pairs)


def _reindex(tx: Tx, namespace: str, sessions: list[str]) -> None:
    """Memories said after an erased one were indexed with its words too (their context,
    ``write/context.py``): their sessions' memories are indexed by their own words again."""
    for session in sessions:
        texts = tx.run("memory/session_texts", namespace=namespace, session=session)
        terms = [{"id": r["id"], "ft_terms": fulltext.indexed(namespace, str(r["content"] or ""))}
                 for r in texts]  # fmt: skip
        if terms:
            tx.run("memory/set_terms", rows=terms)


def _scrub_remembers(tx: Tx, namespace: str, erased: set[str], needle: str | None) -> int:
    """Replace the remember log's items that made erased memories (or hold the text)."""
    scrubbed, rows = 0, []
    for event in tx.run("episode/remember_events", namespace=namespace):
        items = list(event["items"] or [])
        item_ids = list(event["ids"] or ids.remembered(namespace, str(event["id"]), len(items)))
        changed = False
        for i, raw in enumerate(items):
            if raw == ERASED_ITEM:
                continue
            content = str(json.loads(raw).get("content") or "").lower()
            if item_ids[i] in erased or (needle is not None and needle in content):
                items[i], changed = ERASED_ITEM, True
                scrubbed += 1
        if changed:
            rows.append({"id": event["id"], "items": items, "ids": event["ids"]})
    if rows:
        tx.run("erase/remember_event", namespace=namespace, rows=rows)
    return scrubbed


def _drop_edits(tx: Tx, namespace: str, erased: set[str]) -> int:
    """Edits naming an erased memory (their arguments may hold its words: a reason, a tag)."""
    gone = [
        str(r["id"])
        for r in tx.run("edit/list", namespace=namespace)
        if erased & strings(json.loads(r["args"] or "{}"))
    ]
    if gone:
        tx.run("erase/delete_edits", namespace=namespace, ids=gone)
    return len(gone)


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in strings(v)}
    return set()


def _drop_gaps(tx: Tx, namespace: str, texts: list[str], needle: str | None) -> int:
    """Gaps whose context holds the text, or an erased turn's or memory's words (a recall's
    context is often the user's message as said)."""
    said = [t.strip().lower() for t in texts if len(t.strip()) >= MIN_TEXT]
    gone = []
    for r in tx.run("erase/gaps", namespace=namespace):
        context = str(r["context"] or "").strip().lower()
        if (needle is not None and needle in context) or any(
            s in context or (len(context) >= MIN_TEXT and context in s) for s in said
        ):
            gone.append(str(r["id"]))
    if gone:
        tx.run("erase/delete_gaps", namespace=namespace, ids=gone)
    return len(gone)


def _derived_views(tx: Tx, namespace: str, erased: set[str], now: str) -> None:
    """The profile without entries and skills of erased memories; the core block without them."""
    if not erased:
        return
    tx.run("erase/core", namespace=namespace, ids=sorted(erased))
    found = tx.run("profile/get", namespace=namespace)
    if found:
        entries = [e for e in found[0]["entries"] or []
                   if not erased & set(json.loads(e).get("sources") or ())]  # fmt: skip
        skills = [s for s in found[0]["skills"] or [] if json.loads(s).get("source") not in erased]
        tx.run("erase/profile", namespace=namespace, entries=entries, skills=skills, now=now)
