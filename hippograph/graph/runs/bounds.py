"""What a run may hold. Every text passes the write policy's content filter (secrets redacted,
or refused in reject mode) before it is bounded: a secret cut in half would escape the scanner.

Identifiers (a session, an agent, a tool's name) and the task are refused when too long, with
an error naming the field: they are what runs are found by. What an agent observes is not
refused but bounded: a text past ``MAX_TEXT_CHARS`` keeps its head and says how much was cut,
and an ``arguments`` or ``result`` value whose JSON passes ``MAX_JSON_CHARS`` is replaced by a
summary (``{"truncated": {...}}``: its size, its shape, a digest and the head of its JSON), so
a tool that returns a whole file costs a run a few kilobytes.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from typing import Any

from hippograph.graph import validate
from hippograph.graph.errors import InvalidInput
from hippograph.graph.runs.model import TOOL_STATUSES

MAX_TASK_CHARS = 2000
MAX_TEXT_CHARS = 4000
MAX_JSON_CHARS = 4000
HEAD_CHARS = 1000  # of a summarised JSON value
MAX_TOOL_CHARS = 128
MAX_DURATION_MS = 7 * 24 * 3600 * 1000
Filter = Callable[[str, str], str]


def _filtered(text: str, field: str, content_filter: Filter | None) -> str:
    return content_filter(text, field) if content_filter is not None else text


def task(value: str, content_filter: Filter | None) -> str:
    text = validate.short_text(value, "task", MAX_TASK_CHARS).strip()
    return _filtered(text, "task", content_filter)


def name(value: str | None, field: str, max_chars: int = validate.MAX_NAME_CHARS) -> str | None:
    """An optional identifier (session, agent): one line, bounded, no secret."""
    return None if value is None else validate.identifier(value, field, max_chars)


def tool(value: str) -> str:
    return validate.identifier(value, "tool", MAX_TOOL_CHARS)


def text(value: str | None, field: str, content_filter: Filter | None) -> str | None:
    """An optional free text (thought, action, observation, error, outcome): filtered, then
    cut to ``MAX_TEXT_CHARS`` with a marker saying how much was left out."""
    if value is None or not value.strip():
        return None
    clean = _filtered(value.strip(), field, content_filter)
    if len(clean) <= MAX_TEXT_CHARS:
        return clean
    cut = len(clean) - MAX_TEXT_CHARS
    return f"{clean[:MAX_TEXT_CHARS]} [... truncated: {cut} more characters]"


def json_value(value: Any, field: str, content_filter: Filter | None) -> str | None:
    """``value`` as the JSON text stored: filtered, and summarised past ``MAX_JSON_CHARS``.
    None stays None (nothing reported)."""
    if value is None:
        return None
    try:
        raw = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        raise InvalidInput(field, "must be a JSON value (finite numbers only)") from None
    clean = _filtered(raw, field, content_filter)
    if clean != raw:
        try:
            json.loads(clean)
        except ValueError:  # a redaction broke the JSON: keep the redacted text as a string
            clean = json.dumps(clean, ensure_ascii=False)
    if len(clean) <= MAX_JSON_CHARS:
        return clean
    summary = {
        "truncated": {
            "chars": len(clean),
            "shape": _shape(value),
            "sha256": hashlib.sha256(clean.encode("utf-8")).hexdigest()[:16],
            "head": clean[:HEAD_CHARS],
        }
    }
    return json.dumps(summary, ensure_ascii=False, separators=(",", ":"))


def _shape(value: Any) -> str:
    if isinstance(value, dict):
        keys = list(value)[:10]
        more = f", +{len(value) - 10} more" if len(value) > 10 else ""
        return f"object with keys {keys}{more}"
    if isinstance(value, list):
        return f"list of {len(value)} items"
    return type(value).__name__


def read_json(stored: str | None) -> Any:
    return None if stored is None else json.loads(stored)


def status(value: str, field: str = "status") -> str:
    return validate.choice(value.lower() if isinstance(value, str) else value, TOOL_STATUSES, field)


def duration(value: int | float | None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInput("durationMs", "must be a number of milliseconds")
    if not 0 <= value <= MAX_DURATION_MS:
        raise InvalidInput(
            "durationMs", f"must be in 0..{MAX_DURATION_MS} (7 days)", limit=MAX_DURATION_MS
        )
    return int(round(value))


def step_number(value: int | None) -> int | None:
    if value is not None and (isinstance(value, bool) or not 1 <= value <= 1_000_000):
        raise InvalidInput("step", "must be a step number from 1", limit=1_000_000)
    return value
