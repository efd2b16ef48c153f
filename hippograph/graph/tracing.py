"""Spans around the stages of a recall and the steps of a write, for a tracer the API installs.

The domain core names its stages (``recall.seeds``, ``.expansion``, ``.ranking``, ``.answer``,
``.bundle``; ``write.validate``, ``.filter``, ``.embed``, ``.write``, and ingest's ``.append``
and ``.extract``) and what they counted;
it knows nothing of OpenTelemetry. ``hippograph.api.tracing`` installs a ``Tracer`` when
``HIPPOGRAPH_TRACES`` asks for one; until then ``span`` hands back one shared no-op span:
no import, no allocation, one global read per stage.

Attributes are counts, sizes and a hash of the namespace (``namespace_hash``): never memory
text, a context, a tag or a namespace as written.
"""

from __future__ import annotations

import contextlib
import hashlib
from typing import Protocol

Attribute = str | int | float | bool


class Span(Protocol):
    def set_attribute(self, key: str, value: Attribute) -> None:
        """Record an attribute (a count or size learnt during the stage)."""
        ...


class Tracer(Protocol):
    def span(
        self, name: str, attributes: dict[str, Attribute]
    ) -> contextlib.AbstractContextManager[Span]:
        """A span named ``name``, child of the current one, open for the ``with`` block."""
        ...


class _NoSpan:
    def set_attribute(self, key: str, value: Attribute) -> None:
        pass


_NOTHING = contextlib.nullcontext(_NoSpan())
_tracer: Tracer | None = None


def install(tracer: Tracer | None) -> None:
    """Send every later span to ``tracer`` (None: stop tracing)."""
    global _tracer
    _tracer = tracer


def span(
    name: str, namespace: str | None = None, **attributes: Attribute
) -> contextlib.AbstractContextManager[Span]:
    """A span for the stage ``name``, or the shared no-op one when nothing traces. The
    ``namespace`` is recorded as its hash (``namespace_hash``), and hashed only when traced."""
    if _tracer is None:
        return _NOTHING
    if namespace is not None:
        attributes["namespace_hash"] = namespace_hash(namespace)
    return _tracer.span(name, attributes)


def namespace_hash(namespace: str) -> str:
    """What a span says of a namespace: 12 hex digits of its SHA-256 (the same namespace
    always the same digits, its name not recoverable from a trace store)."""
    return hashlib.sha256(namespace.encode()).hexdigest()[:12]
