"""Input validation: every check raises InvalidInput naming the field and the limit, before any
write. Callers validate a whole batch first, so a bad item leaves the graph untouched."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace

from hippograph.graph.errors import BatchTooLarge, InvalidInput, SecretRejected
from hippograph.graph.model import (
    MEMORY_TYPES,
    PROVENANCES,
    SCOPES,
    STATUSES,
    NewMemory,
    parse_iso,
    scopes,
    to_iso,
)
from hippograph.graph.text import privacy
from hippograph.graph.text.tags import normalize_tag

# \Z, not $: "$" also matches before a final newline, which made "team\n" a second "team".
_NAMESPACE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:@-]{0,127}\Z")
MAX_TAGS = 32
MAX_LIST_ITEMS = 100
MAX_ITEM_CHARS = 2000
MAX_NAME_CHARS = 256  # a project, a session id, a speaker: names a client makes up
MAX_ECHO_CHARS = 40
_SEPARATORS = re.compile(r"[-.:@|/]")


@dataclass(frozen=True, kw_only=True)
class Limits:
    max_content_bytes: int = 32 * 1024
    max_turn_bytes: int = 512 * 1024
    max_batch: int = 1000
    max_k: int = 200


def namespace(value: str, field: str = "namespace") -> str:
    if not isinstance(value, str) or not _NAMESPACE.match(value):
        raise InvalidInput(
            field,
            "must be 1-128 characters of letters, digits and _ . : @ -, starting with a "
            "letter or digit",
            limit=128,
        )
    return secret_free(value, field)


def secret_free(value: str, field: str) -> str:
    """``value`` unchanged if the privacy filter finds no secret in it; else SecretRejected,
    whatever the privacy mode. The gate of every identifier the service stores, logs or
    builds ids from (a namespace, a tag, a session id and the episode ids made of it, a key's
    name): a redacted identifier would name something else, so a secret is refused."""
    findings = secrets_in(value)
    if findings:
        raise SecretRejected(field, [f.kind for f in findings], redactable=False)
    return value


def secrets_in(name: str) -> list[privacy.Finding]:
    """The secrets the filter finds in an identifier, also from after each of its first
    separators: a key glued to a prefix ("s-ghp_...", "team:sk-proj-...") is no token to the
    scanner, which wants a key standing alone."""
    starts = [0, *(m.end() for m in _SEPARATORS.finditer(name, 0, MAX_NAME_CHARS))][:17]
    return next((found for i in starts if (found := privacy.scan(name[i:]))), [])


def identifier(value: str, field: str, max_chars: int = MAX_NAME_CHARS) -> str:
    """A name a client makes up and the service stores (a session id, a tag, a key's name):
    non-empty, at most ``max_chars``, one line, no secret (``secret_free``)."""
    text = short_text(value, field, max_chars)
    if any(ch in text for ch in "\r\n\x00"):
        raise InvalidInput(field, "must be one line, without NUL")
    return secret_free(text, field)


def echo(value: object) -> str:
    """``value`` as an error message may quote it: secrets redacted, at most ``MAX_ECHO_CHARS``
    characters (an error must not carry a key, or megabytes, into the response and the log)."""
    text = privacy.apply(str(value), field="error", mode="redact")
    if len(text) > MAX_ECHO_CHARS:
        text = text[:MAX_ECHO_CHARS] + f"... ({len(text)} characters)"
    return repr(text)


def memory_id(value: str, field: str = "id") -> str:
    if isinstance(value, str) and len(value) > 64:
        raise InvalidInput(field, f"is {len(value)} characters, not a UUID", limit=64)
    try:
        return str(uuid.UUID(value))
    except (ValueError, AttributeError, TypeError):
        raise InvalidInput(field, f"{echo(value)} is not a UUID") from None


def content(value: str, limits: Limits, field: str = "content") -> str:
    return _bounded_text(value, limits.max_content_bytes, field)


def turn_text(value: str, limits: Limits, field: str = "text") -> str:
    """A conversation turn's text: up to ``max_turn_bytes``, more than a memory may hold."""
    return _bounded_text(value, limits.max_turn_bytes, field)


def _bounded_text(value: str, max_bytes: int, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(field, "must not be empty or whitespace")
    size = len(value.encode("utf-8"))
    if size > max_bytes:
        raise InvalidInput(
            field, f"is {size} bytes; the limit is {max_bytes} bytes", limit=max_bytes
        )
    return value.strip()


def short_text(value: str, field: str, max_chars: int) -> str:
    """A short, non-empty string (an identifier a client makes up: a session id, a name)."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidInput(field, "must not be empty or whitespace")
    if len(value) > max_chars:
        raise InvalidInput(field, f"is longer than {max_chars} characters", limit=max_chars)
    return value


def optional_identifier(value: str | None, field: str) -> str | None:
    """None, or ``identifier(value, field)``."""
    return None if value is None else identifier(value, field)


def optional_text(value: str | None, field: str, max_chars: int = MAX_NAME_CHARS) -> str | None:
    """An optional string bounded by ``max_chars`` (a project, a source's messages)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(field, "must be a string")
    if len(value) > max_chars:
        raise InvalidInput(
            field, f"is {len(value)} characters; the limit is {max_chars}", limit=max_chars
        )
    return value


def visible(project: str | None, session_id: str | None) -> list[str]:
    """The scope keys a caller of ``project`` and ``session_id`` sees (``model.scopes``),
    its arguments checked: the ``$scopes`` of every read a caller makes (recall, search,
    memories, the explorer, entities, a scoped export), tested as ``m.scope_key IN $scopes``."""
    return scopes(optional_text(project, "project"), optional_text(session_id, "sessionId"))


def choice(value: str, allowed: Sequence[str], field: str) -> str:
    if value not in allowed:
        raise InvalidInput(
            field, f"{echo(value)} is not one of {', '.join(allowed)}", limit=allowed
        )
    return value


def unit_interval(value: float, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
        raise InvalidInput(field, f"{value!r} is outside 0..1", limit="0..1")
    return float(value)


def top_k(value: int, limits: Limits, field: str = "k") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limits.max_k:
        raise InvalidInput(field, f"{value!r} is outside 1..{limits.max_k}", limit=limits.max_k)
    return value


def batch_size(count: int, limits: Limits, field: str = "memories") -> None:
    if count == 0:
        raise InvalidInput(field, "must hold at least one item")
    if count > limits.max_batch:
        raise BatchTooLarge(
            field, f"holds {count} items; the limit is {limits.max_batch}", limit=limits.max_batch
        )


def tag_name(value: str, field: str = "tag") -> str:
    """Normalized tag (see `text.tags.normalize_tag`): "Python" and " python" are one tag."""
    if not isinstance(value, str):
        raise InvalidInput(field, "must be a string")
    try:
        return normalize_tag(value)
    except InvalidInput as exc:
        raise InvalidInput(field, exc.message.split(": ", 1)[-1], limit=exc.limit) from None


def string_list(
    values: Sequence[str], field: str, *, max_items: int = MAX_LIST_ITEMS
) -> tuple[str, ...]:
    if len(values) > max_items:
        raise InvalidInput(
            field, f"holds {len(values)} items; the limit is {max_items}", limit=max_items
        )
    out = []
    for i, item in enumerate(values):
        if not isinstance(item, str) or not item.strip():
            raise InvalidInput(f"{field}[{i}]", "must be a non-empty string")
        if len(item) > MAX_ITEM_CHARS:
            raise InvalidInput(
                f"{field}[{i}]", f"is longer than {MAX_ITEM_CHARS} characters", limit=MAX_ITEM_CHARS
            )
        out.append(item.strip())
    return tuple(out)


def timestamp(value: str | None, field: str) -> str | None:
    if value is None:
        return None
    try:
        parse_iso(value)
    except (ValueError, AttributeError, TypeError):
        raise InvalidInput(field, f"{echo(value)} is not an ISO-8601 timestamp") from None
    return value


def as_of(value: str | None, field: str = "asOf") -> str | None:
    """An ``asOf`` time in the stored form (UTC, fixed width) so it compares as a string."""
    checked = timestamp(value, field)
    return None if checked is None else to_iso(parse_iso(checked))


def new_memory(item: NewMemory, limits: Limits, field: str = "memory") -> NewMemory:
    """Validate and normalize one item; field prefixes error paths (e.g. memories[3].content)."""
    scope = choice(item.scope, SCOPES, f"{field}.scope")
    if scope == "project" and not item.project:
        raise InvalidInput(f"{field}.project", "is required when scope is 'project'")
    if scope == "session" and not item.session_id:
        raise InvalidInput(f"{field}.sessionId", "is required when scope is 'session'")
    # Every string is bounded before anything is normalized, embedded or sent to the engine.
    if len(item.tags) > MAX_LIST_ITEMS:
        raise InvalidInput(
            f"{field}.tags",
            f"holds {len(item.tags)} items; the limit is {MAX_LIST_ITEMS}",
            limit=MAX_LIST_ITEMS,
        )
    source = item.source
    project = optional_text(item.project, f"{field}.project")
    session_id = optional_text(item.session_id, f"{field}.sessionId")
    source_session = optional_text(source.session_id, f"{field}.source.sessionId")
    messages = optional_text(source.messages, f"{field}.source.messages", limits.max_content_bytes)
    tags = tuple(dict.fromkeys(tag_name(t, f"{field}.tags[{i}]") for i, t in enumerate(item.tags)))
    if len(tags) > MAX_TAGS:
        raise InvalidInput(
            f"{field}.tags", f"holds {len(tags)} tags; the limit is {MAX_TAGS}", limit=MAX_TAGS
        )
    if source.snippet is not None and len(source.snippet) > MAX_ITEM_CHARS:
        raise InvalidInput(
            f"{field}.source.snippet",
            f"is longer than {MAX_ITEM_CHARS} characters",
            limit=MAX_ITEM_CHARS,
        )
    return replace(
        item,
        content=content(item.content, limits, f"{field}.content"),
        project=project,
        session_id=session_id,
        memory_type=choice(item.memory_type, MEMORY_TYPES, f"{field}.memoryType"),
        scope=scope,
        provenance=choice(item.provenance, PROVENANCES, f"{field}.provenance"),
        confidence=None
        if item.confidence is None
        else unit_interval(item.confidence, f"{field}.confidence"),
        trust_score=unit_interval(item.trust_score, f"{field}.trustScore"),
        tags=tags,
        trigger_patterns=string_list(
            item.trigger_patterns, f"{field}.triggerPatterns", max_items=32
        ),
        steps=string_list(item.steps, f"{field}.steps"),
        prerequisites=string_list(item.prerequisites, f"{field}.prerequisites"),
        warnings=string_list(item.warnings, f"{field}.warnings"),
        source=replace(
            source,
            session_id=source_session,
            messages=messages,
            file_paths=string_list(source.file_paths, f"{field}.source.filePaths"),
        ),
        occurred_at=timestamp(item.occurred_at, f"{field}.occurredAt"),
    )


def status(value: str | None, field: str = "status") -> str | None:
    return None if value is None else choice(value, STATUSES, field)
