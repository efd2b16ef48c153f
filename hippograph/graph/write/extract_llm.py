"""Fact extraction by the configured LLM: the prompt, one call, and strict validation of the
answer against the facts schema. Anything malformed becomes ``LLMError`` and nothing is
accepted, so the caller falls back to ``extract.extract_offline`` for the same turns."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

from hippograph.graph.errors import LLMError
from hippograph.graph.model import MEMORY_TYPES
from hippograph.graph.models.llm import JsonCompleter
from hippograph.graph.write.extract import MAX_CONTENT_CHARS, ExtractedFact, TurnText

SCHEMA_NAME = "extracted_facts"
MAX_TAGS = 32
MAX_TAG_CHARS = 64
_FACT_KEYS = frozenset(
    {"content", "memory_type", "confidence", "tags", "event_time", "source_turns"}
)

_SYSTEM_PROMPT = """\
You extract long-term memories from a conversation, for an AI agent's memory store.
Answer with one JSON object and nothing else, exactly this shape:
{"facts": [{"content": string, "memory_type": "fact" | "preference" | "procedure" | \
"correction" | "negative", "confidence": number from 0 to 1, "tags": [string], \
"event_time": ISO-8601 string or null, "source_turns": [integer]}]}
Rules:
- One self-contained statement per fact that names people instead of pronouns \
("Melanie loves hiking", not "I love hiking"); at most 2000 characters.
- memory_type: "preference" for likes and dislikes, "procedure" for steps to follow, \
"correction" when a speaker corrects something said before, "negative" for rules about \
what never to do, otherwise "fact".
- event_time: when it happened, resolved against the turn's date ("yesterday" in a turn \
dated 2023-05-08 is 2023-05-07); null if unknown.
- source_turns: the bracketed numbers of the turns the fact comes from.
- tags: a few short lowercase topic words.
- Skip greetings and small talk; never invent facts. Return {"facts": []} if nothing is \
worth remembering."""


def _render(turns: Sequence[TurnText]) -> str:
    """One line per turn: ``[index] timestamp (session id) Speaker: text``."""
    return "\n".join(
        f"[{turn.turn_index}] {turn.timestamp.isoformat() if turn.timestamp else 'undated'} "
        f"(session {turn.session_id}) {turn.speaker}: {turn.text}"
        for turn in turns
    )


def extract_llm(client: JsonCompleter, turns: Sequence[TurnText]) -> list[ExtractedFact]:
    """Facts in ``turns`` as extracted by a model, all or nothing.

    Args:
        client: an OpenAI-compatible chat client (``ChatClient``).
        turns: consecutive turns; their ``turn_index`` values must be distinct.

    Raises:
        LLMError: the call failed or the answer breaks the schema in any way.
    """
    if not turns:
        return []
    payload = client.complete_json(_SYSTEM_PROMPT, _render(turns), schema_name=SCHEMA_NAME)
    return parse_llm_facts(payload, known_turns=frozenset(turn.turn_index for turn in turns))


def parse_llm_facts(payload: object, *, known_turns: frozenset[int]) -> list[ExtractedFact]:
    """Validate a model's ``{"facts": [...]}`` answer; the first violation raises ``LLMError``."""
    if not isinstance(payload, dict) or set(payload) != {"facts"}:
        raise LLMError(f"{SCHEMA_NAME}: expected an object whose only key is 'facts'")
    facts = payload["facts"]
    if not isinstance(facts, list):
        raise LLMError(f"{SCHEMA_NAME}: 'facts' must be a list")
    return [_parse_fact(item, f"facts[{i}]", known_turns) for i, item in enumerate(facts)]


def _invalid(where: str, message: str) -> LLMError:
    return LLMError(f"{SCHEMA_NAME}: {where} {message}")


def _parse_fact(item: object, where: str, known_turns: frozenset[int]) -> ExtractedFact:
    if not isinstance(item, dict):
        raise _invalid(where, "must be an object")
    if set(item) != _FACT_KEYS:
        missing, extra = sorted(_FACT_KEYS - set(item)), sorted(set(item) - _FACT_KEYS)
        raise _invalid(where, f"has missing keys {missing} / unexpected keys {extra}")
    return ExtractedFact(
        content=_content(item["content"], f"{where}.content"),
        memory_type=_memory_type_value(item["memory_type"], f"{where}.memory_type"),
        confidence=_unit_number(item["confidence"], f"{where}.confidence"),
        tags=_tags(item["tags"], f"{where}.tags"),
        event_time=_timestamp(item["event_time"], f"{where}.event_time"),
        source_turns=_source_turns(item["source_turns"], f"{where}.source_turns", known_turns),
    )


def _content(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _invalid(where, "must be a non-empty string")
    if len(value.strip()) > MAX_CONTENT_CHARS:
        raise _invalid(where, f"is longer than {MAX_CONTENT_CHARS} characters")
    return value.strip()


def _memory_type_value(value: object, where: str) -> str:
    if value not in MEMORY_TYPES:
        raise _invalid(where, f"must be one of {list(MEMORY_TYPES)}, not {value!r}")
    return str(value)


def _unit_number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _invalid(where, f"must be a number, not {value!r}")
    if not (math.isfinite(value) and 0.0 <= value <= 1.0):
        raise _invalid(where, f"must be between 0 and 1, not {value!r}")
    return float(value)


def _tags(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > MAX_TAGS:
        raise _invalid(where, f"must be a list of at most {MAX_TAGS} strings")
    tags: list[str] = []
    for i, tag in enumerate(value):
        if not isinstance(tag, str) or not 0 < len(tag.strip()) <= MAX_TAG_CHARS:
            raise _invalid(f"{where}[{i}]", f"must be a string of 1-{MAX_TAG_CHARS} characters")
        tags.append(tag.strip())
    return tuple(dict.fromkeys(tags))


def _timestamp(value: object, where: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _invalid(where, "must be an ISO-8601 string or null")
    try:
        return datetime.fromisoformat(value)
    except ValueError as exc:
        raise _invalid(where, f"is not ISO-8601: {value!r}") from exc


def _source_turns(value: object, where: str, known_turns: frozenset[int]) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise _invalid(where, "must be a non-empty list of turn numbers")
    for turn in value:
        if isinstance(turn, bool) or not isinstance(turn, int) or turn not in known_turns:
            raise _invalid(where, f"names {turn!r}, which is not one of the turns sent")
    return tuple(dict.fromkeys(value))
