"""The privacy filter over every text field of a memory, not only its content (#21 part 3).

A secret in a step, a warning, a snippet or a file path is stored, exported, replayed from the
``RememberEvent`` log and turned into tags exactly like one in the content; so every field
passes the same filter, and a tag in which a secret is found is dropped rather than redacted
(a tag named ``[redacted:...]`` helps nobody).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from hippograph.graph.model import NewMemory
from hippograph.graph.text import privacy
from hippograph.graph.text.tags import normalize_tag

Filter = Callable[[str, str], str]


def memory(item: NewMemory, keep: Filter, field: str, *, raw_tags: Sequence[str]) -> NewMemory:
    """``item`` with ``keep(text, field_name)`` applied to each of its texts.

    Args:
        item: a validated memory.
        raw_tags: the tags as sent, before normalizing lower-cased them (a key's case is what
            tells it from a word); a tag with a secret there is dropped too.
        keep: the configured filter (redacts, or raises ``SecretRejected``).
        field: the item's path in the request (``memory``, ``memories[3]``), for errors.
    """

    def one(value: str | None, name: str) -> str | None:
        return None if value is None else keep(value, f"{field}.{name}")

    def many(values: Sequence[str], name: str) -> tuple[str, ...]:
        return tuple(keep(v, f"{field}.{name}[{i}]") for i, v in enumerate(values))

    source = item.source
    return replace(
        item,
        content=keep(item.content, f"{field}.content"),
        project=one(item.project, "project"),
        session_id=one(item.session_id, "sessionId"),
        steps=many(item.steps, "steps"),
        prerequisites=many(item.prerequisites, "prerequisites"),
        warnings=many(item.warnings, "warnings"),
        trigger_patterns=many(item.trigger_patterns, "triggerPatterns"),
        tags=tags(
            tuple(t for t in item.tags if t not in _secret_tags(raw_tags, keep, f"{field}.tags")),
            keep,
            f"{field}.tags",
        ),
        source=replace(
            source,
            session_id=one(source.session_id, "source.sessionId"),
            messages=one(source.messages, "source.messages"),
            snippet=one(source.snippet, "source.snippet"),
            file_paths=many(source.file_paths, "source.filePaths"),
        ),
    )


def tags(names: Sequence[str], keep: Filter, field: str) -> tuple[str, ...]:
    """``names`` without any tag holding a secret (or a redaction left by the filter). Tags are
    lower-cased, so each is also scanned upper-cased, where an AWS key id shows again."""
    kept = []
    for i, name in enumerate(names):
        keep(name, f"{field}[{i}]")  # raises in reject mode
        if "redacted" in name or privacy.scan(name) or privacy.scan(name.upper()):
            continue
        kept.append(name)
    return tuple(kept)


def _secret_tags(raw: Sequence[str], keep: Filter, field: str) -> set[str]:
    """The normalized names of the tags sent with a secret in them."""
    found = set()
    for i, name in enumerate(raw):
        if keep(name, f"{field}[{i}]") != name:
            found.add(normalize_tag(name))
    return found
