"""How the conformance suite's model reads Hippograph's records: pure functions from the
client's records to the plain fields of the suite's models (the adapter builds those from them),
and the few ids Hippograph does not have, derived so that the same thing always gets the same id.

What Hippograph keeps and the suite names differently:
- a conversation is a session of the ledger (no node of its own): its id is derived from the
  namespace and the session id, its times are the session's first and last turns';
- a step is (run, n): its id is derived from both;
- a fact (subject, predicate, object) is a caller's ``RELATED`` relationship between two
  entities: its id is derived from the two entities, the type and when it began to hold;
- a preference is a memory of type preference: its category is its tag ``category:<name>``
  (the write path adds tags of its own), its context (when it applies) its trigger pattern;
- entity types are Hippograph's kinds: ORGANIZATION is ``organisation``.
"""

from __future__ import annotations

import uuid
from typing import Any

from hippograph.client.entity_views import Entity, Relationship
from hippograph.client.views import Session
from hippograph.graph.model import Episode, Memory
from hippograph.graph.runs.model import Run, RunStep, RunToolCall, ToolStats

Fields = dict[str, Any]

# The uuid5 namespace of the ids derived here (conversations, steps, facts).
_IDS = uuid.UUID("3c0e7f52-1b8a-4d5e-8f3a-6e2d9b4c7a15")
# The suite's entity types that Hippograph spells otherwise; the rest are the same word.
_KIND_OF_TYPE = {"ORGANIZATION": "organisation"}
_TYPE_OF_KIND = {kind: type_ for type_, kind in _KIND_OF_TYPE.items()}
CATEGORY = "category:"  # the prefix of a preference's category tag


def kind(entity_type: str) -> str:
    """Hippograph's kind for the suite's entity type (PERSON -> person)."""
    return _KIND_OF_TYPE.get(entity_type.upper(), entity_type.lower())


def entity_type(kind_: str) -> str:
    """The suite's entity type for a Hippograph kind (organisation -> ORGANIZATION)."""
    return _TYPE_OF_KIND.get(kind_, kind_.upper())


def conversation_id(namespace: str, session_id: str) -> uuid.UUID:
    return uuid.uuid5(_IDS, f"conversation|{namespace}|{session_id}")


def step_id(run_id: str, n: int) -> uuid.UUID:
    return uuid.uuid5(_IDS, f"step|{run_id}|{n}")


def fact_id(from_uid: str, type_: str, to_uid: str, since: str | None) -> uuid.UUID:
    return uuid.uuid5(_IDS, f"fact|{from_uid}|{type_}|{to_uid}|{since}")


def message(turn: Episode) -> Fields:
    """A turn as the suite's message: its stable id, role, text as stored, when it was
    recorded, and its metadata."""
    return {
        "id": uuid.UUID(turn.id),
        "role": turn.role or turn.speaker,
        "content": turn.text,
        "timestamp": turn.recorded_at,
        "metadata": dict(turn.metadata or {}),
    }


def conversation(namespace: str, session_id: str, turns: list[Episode], now: str) -> Fields:
    """A session's turns as the suite's conversation (``now``: its time while it has none)."""
    return {
        "id": conversation_id(namespace, session_id),
        "session_id": session_id,
        "messages": [message(t) for t in turns],
        "created_at": turns[0].recorded_at if turns else now,
        "updated_at": turns[-1].recorded_at if turns else None,
    }


def conversation_of(namespace: str, session: Session) -> Fields:
    """A session as the suite's conversation without its messages."""
    return {
        "id": conversation_id(namespace, session.session_id),
        "session_id": session.session_id,
        "created_at": session.first_at,
        "updated_at": session.last_at,
    }


def session_info(session: Session) -> Fields:
    return {
        "session_id": session.session_id,
        "message_count": session.turns,
        "created_at": session.first_at,
        "updated_at": session.last_at,
    }


def entity(e: Entity) -> Fields:
    """An entity; ``created_at`` is when it was first seen (for a caller's, when defined)."""
    return {
        "id": uuid.UUID(e.uid),
        "name": e.name,
        "type": entity_type(e.kind),
        "description": e.description,
        "canonical_name": e.canonical,
        "created_at": e.first_seen,
    }


def fact(subject_uid: str, subject: str, r: Relationship) -> Fields:
    """A caller's relationship as the suite's (subject, predicate, object) fact."""
    return {
        "id": fact_id(subject_uid, r.type, r.other_uid, r.since),
        "subject": subject,
        "predicate": r.type,
        "object": r.other_name,
    }


def relationship(source_uid: str, r: Relationship) -> Fields:
    return {
        "id": fact_id(source_uid, r.type, r.other_uid, r.since),
        "source_id": uuid.UUID(source_uid),
        "target_id": uuid.UUID(r.other_uid),
        "relationship_type": r.type,
        "properties": {"since": r.since, "source": r.source},
    }


def category_tag(category: str) -> str:
    return f"{CATEGORY}{category}"


def node(e: Entity) -> Fields:
    return {"id": uuid.UUID(e.uid), "name": e.name, "type": entity_type(e.kind)}


def edge(source_uid: str, r: Relationship) -> Fields:
    return {
        "id": fact_id(source_uid, r.type, r.other_uid, r.since),
        "source": uuid.UUID(source_uid),
        "target": uuid.UUID(r.other_uid),
        "type": r.type,
    }


def preference(m: Memory) -> Fields:
    """A preference memory: its category is its ``category:`` tag, its context its trigger."""
    categories = [t.removeprefix(CATEGORY) for t in m.tags if t.startswith(CATEGORY)]
    return {
        "id": uuid.UUID(m.id),
        "category": categories[0] if categories else "",
        "preference": m.content,
        "context": m.trigger_patterns[0] if m.trigger_patterns else None,
    }


def tool_call(c: RunToolCall) -> Fields:
    return {
        "id": uuid.UUID(c.id),
        "tool_name": c.tool,
        "arguments": c.arguments if isinstance(c.arguments, dict) else {},
        "result": c.result,
        "status": c.status,
        "duration_ms": c.duration_ms,
        "error": c.error,
    }


def step(s: RunStep) -> Fields:
    return {
        "id": step_id(s.run_id, s.n),
        "trace_id": uuid.UUID(s.run_id),
        "step_number": s.n,
        "thought": s.thought,
        "action": s.action,
        "observation": s.observation,
        "tool_calls": [tool_call(c) for c in s.tool_calls],
    }


def trace(run: Run) -> Fields:
    """A run as the suite's reasoning trace (its steps when the run was read whole)."""
    return {
        "id": uuid.UUID(run.id),
        "session_id": run.session or "",
        "task": run.task,
        "steps": [step(s) for s in run.steps],
        "outcome": run.outcome,
        "success": run.success,
        "started_at": run.started,
        "completed_at": run.ended,
    }


def tool_stats(s: ToolStats) -> Fields:
    """One tool's statistics; a tool with no ended call has a success rate of 0 in the suite's
    model (None in Hippograph's)."""
    return {
        "name": s.tool,
        "total_calls": s.calls,
        "successful_calls": s.successes,
        "failed_calls": s.failures,
        "success_rate": s.success_rate or 0.0,
        "avg_duration_ms": s.mean_duration_ms,
    }
