"""A conversation message as an agent platform sends it, validated before anything is written.

A message (a turn of the episode log) has a role (user, assistant, system or tool) or a
speaker, its text, the tool calls it makes (id, name, arguments), the tool results it carries
(call id, content, status), a bounded JSON ``metadata`` object (a platform's message id, a
channel, attachments...), an optional client message id (its idempotency key) and an optional
turn index (absent: the server appends it after the session's last turn).

The text is kept exactly as sent (after the privacy filter): no whitespace is stripped. It may
be empty: an assistant message that only calls tools has none, and the conformance suite's
``add_message`` takes an empty string too; the extractor skips it. Every part is bounded; a
bad part raises ``InvalidInput`` naming it (``turns[3].toolCalls[0].name``), and the caller
validates the whole batch before writing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hippograph.graph import validate
from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import ToolCall, ToolResult

ROLES: tuple[str, ...] = ("user", "assistant", "system", "tool")
STATUSES: tuple[str, ...] = ("ok", "error")
MAX_SESSION_ID = 200
MAX_SPEAKER = 100
MAX_INDEX = 10_000_000
MAX_ID_CHARS = 256  # a message id, a tool call id, a tool name
MAX_TOOL_CALLS = 64  # calls, and results, in one message
MAX_ARGUMENTS_BYTES = 64 * 1024  # one call's arguments
MAX_METADATA_BYTES = 16 * 1024  # the metadata object, as compact JSON
MAX_METADATA_DEPTH = 8

Keep = Callable[[str, str], str]


@dataclass(frozen=True, kw_only=True)
class NewTurn:
    """One message to ingest. ``speaker`` or ``role`` (or both) must be given; ``turn_index``
    None appends it after the session's last turn."""

    session_id: str
    text: str = ""
    turn_index: int | None = None
    speaker: str | None = None
    role: str | None = None
    timestamp: str | None = None
    file_paths: tuple[str, ...] = ()
    tool_calls: tuple[ToolCall, ...] = ()
    tool_results: tuple[ToolResult, ...] = ()
    metadata: Mapping[str, Any] | None = None
    message_id: str | None = None


def check(turn: NewTurn, where: str, limits: validate.Limits, keep: Keep | None) -> NewTurn:
    """``turn`` validated and privacy-filtered (``keep``: the configured filter, or None);
    ``where`` is its path in the request (``turns[3]``)."""
    if not isinstance(turn.session_id, str) or not turn.session_id.strip():
        raise InvalidInput(f"{where}.sessionId", f"must be 1-{MAX_SESSION_ID} characters")
    if len(turn.session_id) > MAX_SESSION_ID:
        raise InvalidInput(
            f"{where}.sessionId", f"must be 1-{MAX_SESSION_ID} characters", limit=MAX_SESSION_ID
        )
    # The session id is part of every episode id: one line, no secret (validate.identifier).
    validate.identifier(turn.session_id, f"{where}.sessionId", MAX_SESSION_ID)
    index = turn.turn_index
    if index is not None and (isinstance(index, bool) or not 0 <= index <= MAX_INDEX):
        raise InvalidInput(
            f"{where}.turnIndex", f"must be an integer 0..{MAX_INDEX}", limit=MAX_INDEX
        )
    speaker = (turn.speaker or "").strip() or None
    if speaker is None and turn.role is None:
        raise InvalidInput(f"{where}.speaker", "give a speaker or a role")
    if speaker is not None and len(speaker) > MAX_SPEAKER:
        raise InvalidInput(
            f"{where}.speaker", f"must be at most {MAX_SPEAKER} characters", limit=MAX_SPEAKER
        )
    role = None if turn.role is None else validate.choice(turn.role, ROLES, f"{where}.role")
    calls = _calls(turn.tool_calls, f"{where}.toolCalls")
    results = _results(turn.tool_results, limits, f"{where}.toolResults")
    text = _text(turn.text, limits, f"{where}.text")
    message_id = _ident(turn.message_id, f"{where}.messageId") if turn.message_id else None
    metadata = _metadata(turn.metadata, f"{where}.metadata")
    file_paths = validate.string_list(turn.file_paths, f"{where}.filePaths")
    if keep is not None:
        text = keep(text, f"{where}.text") if text else text
        speaker = None if speaker is None else keep(speaker, f"{where}.speaker")
        file_paths = tuple(keep(p, f"{where}.filePaths[{j}]") for j, p in enumerate(file_paths))
        calls = tuple(
            ToolCall(
                id=c.id,
                name=c.name,
                arguments=keep(c.arguments, f"{where}.toolCalls[{j}].arguments")
                if c.arguments
                else "",
            )
            for j, c in enumerate(calls)
        )
        results = tuple(
            ToolResult(
                call_id=r.call_id,
                status=r.status,
                content=keep(r.content, f"{where}.toolResults[{j}].content") if r.content else "",
            )
            for j, r in enumerate(results)
        )
        metadata = None if metadata is None else _filtered(metadata, keep, f"{where}.metadata")
    return NewTurn(
        session_id=turn.session_id.strip(),
        text=text,
        turn_index=index,
        speaker=speaker,
        role=role,
        timestamp=validate.timestamp(turn.timestamp, f"{where}.timestamp"),
        file_paths=file_paths,
        tool_calls=calls,
        tool_results=results,
        metadata=metadata,
        message_id=message_id,
    )


def _text(value: str, limits: validate.Limits, field: str) -> str:
    """The text as sent: bounded, never stripped, possibly empty (a platform does send empty
    messages: an assistant message that only calls tools, a tool that answered nothing)."""
    if not isinstance(value, str):
        raise InvalidInput(field, "must be a string")
    size = len(value.encode("utf-8"))
    if size > limits.max_turn_bytes:
        raise InvalidInput(
            field,
            f"is {size} bytes; the limit is {limits.max_turn_bytes} bytes",
            limit=limits.max_turn_bytes,
        )
    return value


def _ident(value: str, field: str) -> str:
    """An id a platform made up (a message id, a call id, a tool name): kept as sent, so it
    passes the identifier gate (one line, no secret; ``validate.identifier``)."""
    return validate.identifier(value, field, MAX_ID_CHARS)


def _calls(calls: tuple[ToolCall, ...], field: str) -> tuple[ToolCall, ...]:
    if len(calls) > MAX_TOOL_CALLS:
        raise InvalidInput(
            field, f"holds {len(calls)} calls; the limit is {MAX_TOOL_CALLS}", limit=MAX_TOOL_CALLS
        )
    out = []
    for j, call in enumerate(calls):
        at = f"{field}[{j}]"
        if not isinstance(call.arguments, str):
            raise InvalidInput(f"{at}.arguments", "must be JSON text (a string)")
        size = len(call.arguments.encode("utf-8"))
        if size > MAX_ARGUMENTS_BYTES:
            raise InvalidInput(
                f"{at}.arguments",
                f"is {size} bytes; the limit is {MAX_ARGUMENTS_BYTES} bytes",
                limit=MAX_ARGUMENTS_BYTES,
            )
        out.append(
            ToolCall(
                id=_ident(call.id, f"{at}.id"),
                name=_ident(call.name, f"{at}.name"),
                arguments=call.arguments,
            )
        )
    return tuple(out)


def _results(
    results: tuple[ToolResult, ...], limits: validate.Limits, field: str
) -> tuple[ToolResult, ...]:
    if len(results) > MAX_TOOL_CALLS:
        raise InvalidInput(
            field,
            f"holds {len(results)} results; the limit is {MAX_TOOL_CALLS}",
            limit=MAX_TOOL_CALLS,
        )
    out = []
    for j, result in enumerate(results):
        at = f"{field}[{j}]"
        content = _text(result.content, limits, f"{at}.content")
        status = validate.choice(result.status, STATUSES, f"{at}.status")
        out.append(
            ToolResult(
                call_id=_ident(result.call_id, f"{at}.callId"), content=content, status=status
            )
        )
    return tuple(out)


def _metadata(value: Mapping[str, Any] | None, field: str) -> dict[str, Any] | None:
    """A JSON object of at most ``MAX_METADATA_BYTES`` (compact) and ``MAX_METADATA_DEPTH``."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise InvalidInput(field, "must be a JSON object")
    try:
        raw = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        raise InvalidInput(field, "must hold only JSON values") from None
    size = len(raw.encode("utf-8"))
    if size > MAX_METADATA_BYTES:
        raise InvalidInput(
            field,
            f"is {size} bytes as JSON; the limit is {MAX_METADATA_BYTES}",
            limit=MAX_METADATA_BYTES,
        )
    if _depth(value) > MAX_METADATA_DEPTH:
        raise InvalidInput(
            field, f"nests deeper than {MAX_METADATA_DEPTH} levels", limit=MAX_METADATA_DEPTH
        )
    parsed: dict[str, Any] = json.loads(raw)
    return parsed


def _depth(value: Any) -> int:
    if isinstance(value, Mapping):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _filtered(value: Any, keep: Keep, field: str) -> Any:
    """``value`` with the privacy filter applied to every string in it, keys included."""
    if isinstance(value, str):
        return keep(value, field) if value.strip() else value
    if isinstance(value, Mapping):
        return {
            _filtered(k, keep, field): _filtered(v, keep, f"{field}.{k}") for k, v in value.items()
        }
    if isinstance(value, list):
        return [_filtered(v, keep, f"{field}[{i}]") for i, v in enumerate(value)]
    return value


def stored(turn: NewTurn) -> dict[str, Any]:
    """The message's tool calls, tool results and metadata as the ``Episode`` node stores them
    (JSON strings: a graph property holds no maps); empty parts are left off."""
    props: dict[str, Any] = {}
    if turn.tool_calls:
        props["tool_calls"] = json.dumps(
            [{"id": c.id, "name": c.name, "arguments": c.arguments} for c in turn.tool_calls]
        )
    if turn.tool_results:
        props["tool_results"] = json.dumps(
            [
                {"call_id": r.call_id, "content": r.content, "status": r.status}
                for r in turn.tool_results
            ]
        )
    if turn.metadata is not None:
        props["metadata"] = json.dumps(turn.metadata, separators=(",", ":"), ensure_ascii=False)
    return props
