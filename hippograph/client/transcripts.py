"""Transcripts as agent platforms give them, turned into ``Turn`` records to ingest.

    from hippograph.client import Client, from_anthropic, from_openai

    with Client(namespace="demo") as memory:
        memory.ingest(from_openai(messages, session_id="chat-42"), flush=True)

``from_openai`` reads OpenAI chat messages (``{"role", "content", "tool_calls",
"tool_call_id", "name"}``); ``from_anthropic`` reads Anthropic messages (``{"role",
"content"}`` with text, ``tool_use`` and ``tool_result`` blocks, and the request's ``system``).
Text is passed on exactly as given; tool calls and results become the message's tool parts
(which go to the log, never to memories); parts that are neither (images, documents) are
named in the message's metadata under ``attachments`` (their type only: an image's bytes are
not metadata). No index is chosen: the server appends the messages in order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from hippograph.client.records import Json, Turn
from hippograph.graph.model import ToolCall, ToolResult

# OpenAI's "developer" role is its newer name for system instructions.
_OPENAI_ROLES = {"developer": "system", "function": "tool"}


def from_openai(
    messages: Iterable[Mapping[str, Any]],
    *,
    session_id: str,
    speakers: Mapping[str, str] | None = None,
) -> list[Turn]:
    """One ``Turn`` per OpenAI chat message, in order.

    session_id: the conversation's id. speakers: a name per role (``{"user": "Ada"}``); a
    message's own ``name`` wins; otherwise the role is the speaker.
    """
    turns = []
    for message in messages:
        role = str(message.get("role", "user"))
        role = _OPENAI_ROLES.get(role, role)
        text, attachments = _openai_content(message.get("content"))
        calls = tuple(
            ToolCall(
                id=str(call.get("id", "")),
                name=str(call.get("function", {}).get("name", "")),
                arguments=_arguments(call.get("function", {}).get("arguments", "")),
            )
            for call in message.get("tool_calls") or ()
        )
        results: tuple[ToolResult, ...] = ()
        if role == "tool":  # the tool's answer is the result of the call it names
            call_id = str(message.get("tool_call_id") or message.get("name") or "")
            results = (ToolResult(call_id=call_id, content=text),)
            text = ""
        turns.append(
            Turn(
                session_id=session_id,
                text=text,
                speaker=message.get("name") or (speakers or {}).get(role),
                role=role,
                tool_calls=calls,
                tool_results=results,
                metadata=_metadata(message, attachments, ("role", "content", "tool_calls")),
                message_id=_message_id(message),
            )
        )
    return turns


def from_anthropic(
    messages: Iterable[Mapping[str, Any]],
    *,
    session_id: str,
    system: str | Sequence[Mapping[str, Any]] | None = None,
    speakers: Mapping[str, str] | None = None,
) -> list[Turn]:
    """One ``Turn`` per Anthropic message, in order, after a ``system`` turn when the request
    had a system prompt. Arguments as in ``from_openai``."""
    turns = []
    if system:
        text, _, _, _ = _anthropic_blocks(system)
        turns.append(Turn(session_id=session_id, text=text, role="system"))
    for message in messages:
        role = str(message.get("role", "user"))
        text, calls, results, attachments = _anthropic_blocks(message.get("content"))
        turns.append(
            Turn(
                session_id=session_id,
                text=text,
                speaker=(speakers or {}).get(role),
                role=role,
                tool_calls=calls,
                tool_results=results,
                metadata=_metadata(message, attachments, ("role", "content")),
                message_id=_message_id(message),
            )
        )
    return turns


def _openai_content(content: Any) -> tuple[str, list[str]]:
    """The text of a message's content (a string, parts, or None) and its other parts' types."""
    if content is None:
        return "", []
    if isinstance(content, str):
        return content, []
    texts, others = [], []
    for part in content:
        if part.get("type") == "text":
            texts.append(str(part.get("text", "")))
        else:
            others.append(str(part.get("type", "unknown")))
    return "\n".join(texts), others


def _anthropic_blocks(
    content: Any,
) -> tuple[str, tuple[ToolCall, ...], tuple[ToolResult, ...], list[str]]:
    if content is None:
        return "", (), (), []
    if isinstance(content, str):
        return content, (), (), []
    texts, calls, results, others = [], [], [], []
    for block in content:
        kind = block.get("type")
        if kind == "text":
            texts.append(str(block.get("text", "")))
        elif kind == "tool_use":
            calls.append(
                ToolCall(
                    id=str(block.get("id", "")),
                    name=str(block.get("name", "")),
                    arguments=_arguments(block.get("input", {})),
                )
            )
        elif kind == "tool_result":
            inner, _, _, _ = _anthropic_blocks(block.get("content"))
            results.append(
                ToolResult(
                    call_id=str(block.get("tool_use_id", "")),
                    content=inner,
                    status="error" if block.get("is_error") else "ok",
                )
            )
        else:
            others.append(str(kind or "unknown"))
    return "\n".join(texts), tuple(calls), tuple(results), others


def _arguments(value: Any) -> str:
    """A call's arguments as JSON text: OpenAI sends text already, Anthropic an object."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _message_id(message: Mapping[str, Any]) -> str | None:
    value = message.get("id")
    return str(value) if value else None


def _metadata(
    message: Mapping[str, Any], attachments: list[str], read: Sequence[str]
) -> Json | None:
    """What the message carries beyond what the turn holds: plain top-level values (not the
    id or name, which the turn keeps), and the types of its attachments."""
    extra: Json = {
        k: v
        for k, v in message.items()
        if k not in (*read, "id", "name", "tool_call_id")
        and isinstance(v, str | int | float | bool)
    }
    if attachments:
        extra["attachments"] = attachments
    return extra or None
