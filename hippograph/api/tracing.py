"""OpenTelemetry traces: the ``otel`` extra, off unless ``HIPPOGRAPH_TRACES`` is otlp or console.

When on, each request to ``/graphql`` or ``/mcp`` is a span (``POST /graphql``), and inside it
the domain's stages (``graph/tracing.py``): a recall's ``hippograph.recall.seeds``,
``.expansion``, ``.ranking``, ``.answer`` (inside ``hippograph.recall.bundle`` for a context
bundle), a write's ``hippograph.write.validate``, ``.filter``, ``.embed``, ``.write`` (and
ingest's ``.append`` and ``.extract``), with counts and the namespace's hash as attributes,
never memory text. Spans go to an OTLP/HTTP collector (``HIPPOGRAPH_TRACES_ENDPOINT``) in
batches, or to stdout (console). Off, nothing of OpenTelemetry is imported and no middleware
is added.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from hippograph.graph import tracing
from hippograph.graph.errors import ConfigError
from hippograph.settings import Settings

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import TracerProvider
    from starlette.types import ASGIApp, Receive, Scope, Send

# Requests that get a span of their own (health probes and scrapes would drown the traces).
TRACED_PATHS = ("/graphql", "/mcp")
SERVICE = "hippograph"


class OtelTracer:
    """``graph.tracing.Tracer`` over an OpenTelemetry tracer: stages become child spans."""

    def __init__(self, provider: TracerProvider) -> None:
        self._tracer = provider.get_tracer("hippograph")

    def span(
        self, name: str, attributes: dict[str, tracing.Attribute]
    ) -> contextlib.AbstractContextManager[tracing.Span]:
        return self._tracer.start_as_current_span(f"hippograph.{name}", attributes=attributes)


class RequestSpans:
    """ASGI middleware: a span around each request to ``TRACED_PATHS``, the parent of the
    stages' spans (the work threads inherit the request's context: ``anyio.to_thread``)."""

    def __init__(self, app: ASGIApp, provider: TracerProvider) -> None:
        self.app = app
        self._tracer = provider.get_tracer("hippograph")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in TRACED_PATHS:
            await self.app(scope, receive, send)
            return
        name = f"{scope['method']} {scope['path']}"
        attributes = {"http.request.method": scope["method"], "url.path": scope["path"]}
        with self._tracer.start_as_current_span(name, attributes=attributes) as span:
            status: list[int] = []

            async def sending(message: Any) -> None:
                if message["type"] == "http.response.start":
                    status.append(message["status"])
                await send(message)

            await self.app(scope, receive, sending)
            if status:
                span.set_attribute("http.response.status_code", status[0])


def provider(settings: Settings, exporter: Any = None) -> TracerProvider:
    """A tracer provider sending to ``exporter`` one span at a time (tests: the SDK's
    in-memory exporter), else to the configured exporter in batches. Raises ConfigError
    naming the extra when OpenTelemetry is not installed."""
    try:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import (
            BatchSpanProcessor,
            ConsoleSpanExporter,
            SimpleSpanProcessor,
        )
    except ImportError as exc:
        raise ConfigError(
            "HIPPOGRAPH_TRACES",
            f"needs OpenTelemetry: pip install 'hippograph[otel]' ({exc.name} is missing)",
        ) from None
    made = TracerProvider(resource=Resource.create({"service.name": SERVICE}))
    if exporter is not None:
        made.add_span_processor(SimpleSpanProcessor(exporter))
    elif settings.server.traces == "console":
        made.add_span_processor(BatchSpanProcessor(ConsoleSpanExporter()))
    else:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        made.add_span_processor(
            BatchSpanProcessor(OTLPSpanExporter(endpoint=settings.server.traces_endpoint))
        )
    return made


@contextlib.contextmanager
def traced(made: TracerProvider) -> Any:
    """The domain's stages traced through ``made`` while the block runs; its spans flushed
    at the end."""
    tracing.install(OtelTracer(made))
    try:
        yield
    finally:
        tracing.install(None)
        made.shutdown()
