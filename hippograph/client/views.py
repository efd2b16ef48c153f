"""The client's records of what an agent reads besides memories: context bundles, the core
block, the profile, sessions and conversations, erasures, gaps; and reading them from JSON.

Turns come back as the domain's ``Episode`` (``hippograph.graph.model``), like memories."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hippograph.client.records import Json, memory
from hippograph.graph import model


@dataclass(frozen=True, kw_only=True)
class ContextItem:
    ref: int  # the [n] in the text
    id: str
    section: str
    score: float
    truncated: bool


@dataclass(frozen=True, kw_only=True)
class ContextBundle:
    text: str
    tokens: int
    budget: int
    format: str
    exact_tokens: bool
    dropped: int
    gap: bool
    items: tuple[ContextItem, ...]


@dataclass(frozen=True, kw_only=True)
class Pending:
    """The latest bundle finished for a session (next-turn mode), with its age."""

    context: str
    observed_at: str
    finished_at: str
    age_ms: float
    bundle: ContextBundle | None
    error: str | None


@dataclass(frozen=True, kw_only=True)
class Observation:
    accepted: bool
    replaced: bool
    waiting: int


@dataclass(frozen=True, kw_only=True)
class Used:
    memories_touched: int
    links_created: int
    links_reinforced: int


@dataclass(frozen=True, kw_only=True)
class CoreChange:
    version: int
    at: str
    decider: str
    added: tuple[str, ...]
    removed: tuple[str, ...]
    reason: str


@dataclass(frozen=True, kw_only=True)
class CoreBlock:
    version: int
    updated_at: str | None
    decider: str | None
    memories: tuple[model.Memory, ...]
    changes: tuple[CoreChange, ...] = ()  # the latest, newest first


@dataclass(frozen=True, kw_only=True)
class ProfileEntry:
    kind: str
    attribute: str | None
    subject: str | None
    statement: str
    sources: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Skill:
    name: str
    steps: tuple[str, ...]
    source: str
    uses: int
    confidence: float


@dataclass(frozen=True, kw_only=True)
class Profile:
    version: int
    updated_at: str | None
    entries: tuple[ProfileEntry, ...]
    skills: tuple[Skill, ...]


@dataclass(frozen=True, kw_only=True)
class Session:
    session_id: str
    turns: int
    first_at: str
    last_at: str
    participants: tuple[str, ...]
    first_turn_index: int
    last_turn_index: int


@dataclass(frozen=True, kw_only=True)
class SessionPage:
    items: tuple[Session, ...]
    next_cursor: str | None


@dataclass(frozen=True, kw_only=True)
class ConversationPage:
    turns: tuple[model.Episode, ...]
    next_cursor: str | None


@dataclass(frozen=True, kw_only=True)
class Erasure:
    turns: int
    runs: int
    memories: int
    kept: int
    decisions: int
    remember_items: int
    edits: int
    gaps: int
    tags: int
    entities: int
    words: int
    compacted: bool
    dry_run: bool
    turn_ids: tuple[str, ...]
    memory_ids: tuple[str, ...]
    run_ids: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Gap:
    id: str
    context: str
    best_score: float | None
    count: int
    first_at: str
    last_at: str


def bundle(d: Json) -> ContextBundle:
    return ContextBundle(
        text=d["text"], tokens=d["tokens"], budget=d["budget"], format=d["format"],
        exact_tokens=d["exactTokens"], dropped=d["dropped"], gap=d["gap"],
        items=tuple(ContextItem(ref=i["ref"], id=i["id"], section=i["section"],
                                score=i["score"], truncated=i["truncated"]) for i in d["items"]),
    )  # fmt: skip


def pending(d: Json | None) -> Pending | None:
    if d is None:
        return None
    return Pending(
        context=d["context"], observed_at=d["observedAt"], finished_at=d["finishedAt"],
        age_ms=d["ageMs"], bundle=bundle(d["bundle"]) if d["bundle"] else None, error=d["error"],
    )  # fmt: skip


def observation(d: Json) -> Observation:
    return Observation(accepted=d["accepted"], replaced=d["replaced"], waiting=d["waiting"])


def used(d: Json) -> Used:
    return Used(memories_touched=d["memoriesTouched"], links_created=d["linksCreated"],
                links_reinforced=d["linksReinforced"])  # fmt: skip


def core(d: Json) -> CoreBlock:
    block = d["core"]
    return CoreBlock(
        version=block["version"], updated_at=block["updatedAt"], decider=block["decider"],
        memories=tuple(memory(m) for m in block["memories"]),
        changes=tuple(core_change(c) for c in d.get("coreChanges") or ()),
    )  # fmt: skip


def core_change(c: Json) -> CoreChange:
    return CoreChange(
        version=c["version"], at=c["at"], decider=c["decider"], added=tuple(c["added"]),
        removed=tuple(c["removed"]), reason=c["reason"],
    )  # fmt: skip


def profile(d: Json) -> Profile:
    return Profile(
        version=d["version"], updated_at=d["updatedAt"],
        entries=tuple(ProfileEntry(kind=e["kind"], attribute=e["attribute"], subject=e["subject"],
                                   statement=e["statement"], sources=tuple(e["sources"]))
                      for e in d["entries"]),
        skills=tuple(Skill(name=s["name"], steps=tuple(s["steps"]), source=s["source"],
                           uses=s["uses"], confidence=s["confidence"]) for s in d["skills"]),
    )  # fmt: skip


def session_page(d: Json) -> SessionPage:
    return SessionPage(
        items=tuple(Session(session_id=s["sessionId"], turns=s["turns"], first_at=s["firstAt"],
                            last_at=s["lastAt"], participants=tuple(s["participants"]),
                            first_turn_index=s["firstTurnIndex"],
                            last_turn_index=s["lastTurnIndex"]) for s in d["items"]),
        next_cursor=d["nextCursor"],
    )  # fmt: skip


def episode(d: Json) -> model.Episode:
    """An ``Episode`` from the API's JSON (the turn's parts as the log keeps them)."""
    props: dict[str, Any] = {
        "uid": d["uid"], "namespace": d["uid"].rsplit("|", 2)[0], "session_id": d["sessionId"],
        "turn_index": d["turnIndex"], "speaker": d["speaker"], "role": d["role"],
        "text": d["text"], "said_at": d["timestamp"], "file_paths": d["filePaths"],
        "recorded_at": d["recordedAt"], "high_signal": d["highSignal"],
        "signal_kinds": d["signalKinds"], "extracted_at": d["extractedAt"],
        "extractor": d["extractor"], "id": d["id"], "message_id": d["messageId"],
        "tool_calls": json.dumps(d["toolCalls"]),
        "tool_results": json.dumps([{"call_id": r["callId"], "content": r["content"],
                                     "status": r["status"]} for r in d["toolResults"]]),
        "metadata": None if d["metadata"] is None else json.dumps(d["metadata"]),
    }  # fmt: skip
    return model.to_episode(props, d["memoryIds"])


def conversation_page(d: Json) -> ConversationPage:
    return ConversationPage(
        turns=tuple(episode(e) for e in d["turns"]), next_cursor=d["nextCursor"]
    )


def erasure(d: Json) -> Erasure:
    return Erasure(
        turns=d["turns"], runs=d["runs"], memories=d["memories"], kept=d["kept"],
        decisions=d["decisions"],
        remember_items=d["rememberItems"], edits=d["edits"], gaps=d["gaps"], tags=d["tags"],
        entities=d["entities"], words=d["words"], compacted=d["compacted"], dry_run=d["dryRun"],
        turn_ids=tuple(d["turnIds"]), memory_ids=tuple(d["memoryIds"]),
        run_ids=tuple(d["runIds"]),
    )  # fmt: skip


def gap(d: Json) -> Gap:
    return Gap(id=d["id"], context=d["context"], best_score=d["bestScore"], count=d["count"],
               first_at=d["firstAt"], last_at=d["lastAt"])  # fmt: skip
