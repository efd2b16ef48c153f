"""Bounds on one request, so that no single request can stall the service (#21 part 2).

- ``BodyLimit``: an ASGI middleware refusing a body over ``max_body_bytes`` with 413, counting
  as the body streams in (a lying or absent ``Content-Length`` changes nothing).
- ``RequestLimits``: a Strawberry extension bounding the document's size (before parsing),
  tokens (a proxy for total fields: the parser stops counting past the limit), depth and
  aliases, from the runtime's settings.
- ``charge_k``: called by every resolver taking ``k``; ``k`` summed over one request is bounded.
- ``refuse_get``: a query field with side effects (recall) is refused over GET, which a browser
  can be made to send cross-site.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.extensions import MaxAliasesLimiter, QueryDepthLimiter, SchemaExtension
from strawberry.types import Info

from hippograph.graph.errors import InvalidInput
from hippograph.settings import Settings

_K_CHARGED = "hippograph.k_charged"


class BodyTooLarge(Exception):
    """Raised inside ``receive`` once the body passes the limit."""


class BodyLimit:
    """Answer 413 to any HTTP request whose body is larger than ``max_bytes``.

    Args:
        app: the wrapped ASGI app.
        max_bytes: the largest body accepted, in bytes.
    """

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(scope, receive, send)
            return
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if not started:
                await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = PlainTextResponse(
            f"request body is larger than {self.max_bytes} bytes (HIPPOGRAPH_MAX_BODY_BYTES)",
            status_code=413,
        )
        await response(scope, receive, send)


def _settings(context: Any) -> Settings | None:
    """The app's settings (``create_app``), else the runtime's; None outside an app."""
    if not isinstance(context, dict):
        return None
    settings = context.get("settings")
    if isinstance(settings, Settings):
        return settings
    return getattr(context.get("runtime"), "settings", None)


class RequestLimits(SchemaExtension):
    """Tokens, depth and aliases of a document bounded by the runtime's settings; without a
    runtime in the context (a bare ``schema.execute``) nothing is bounded."""

    def on_operation(self) -> Iterator[None]:
        settings = _settings(self.execution_context.context)
        if settings is not None:
            _check_size(self.execution_context.query, settings.limits.max_query_bytes)
            self.execution_context.parse_options["max_tokens"] = settings.limits.max_query_tokens
            self.execution_context.validation_rules = (
                *self.execution_context.validation_rules,
                *_limit_rules(settings.limits.max_query_depth, settings.limits.max_aliases),
            )
        yield


@lru_cache(maxsize=16)
def _limit_rules(max_depth: int, max_aliases: int) -> tuple[Any, ...]:
    """The depth and alias validation rules for these bounds, built once. Each limiter makes
    a new rule class: built per request they made every request's rules differ, and the
    validation cache (keyed by the document and the rules) never hit, so every request was
    validated again (~4 ms of a recall's ~5 ms over HTTP)."""
    limiters = (
        QueryDepthLimiter(max_depth=max_depth),
        MaxAliasesLimiter(max_alias_count=max_aliases),
    )
    return tuple(rule for limiter in limiters for rule in limiter.validation_rules)


def _check_size(query: str | None, limit: int) -> None:
    """Refuse a document of more than ``limit`` UTF-8 bytes before the parser (pure Python, on
    the event loop) spends seconds on it."""
    size = len(query.encode("utf-8", "surrogatepass")) if query is not None else 0
    if size > limit:
        raise InvalidInput(
            "query",
            f"the document is {size} bytes; the limit is {limit} "
            "(HIPPOGRAPH_MAX_QUERY_BYTES): send large values as variables",
            limit=limit,
        )


def charge_k(info: Info, k: int, field: str = "k") -> None:
    """Add ``k`` to what this request has asked for; over ``max_k_per_request`` it is refused
    before any engine work, naming the limit."""
    settings = _settings(info.context)
    if settings is None or isinstance(k, bool) or not isinstance(k, int):
        return
    if not 1 <= k <= settings.limits.max_k:
        return  # out of range for one field: the resolver's own check names that limit
    charged = info.context.get(_K_CHARGED, 0) + k
    if charged > settings.limits.max_k_per_request:
        raise InvalidInput(
            field,
            f"summed over this request is {charged}; the limit is "
            f"{settings.limits.max_k_per_request} (HIPPOGRAPH_MAX_K_PER_REQUEST)",
            limit=settings.limits.max_k_per_request,
        )
    info.context[_K_CHARGED] = charged


def refuse_get(info: Info, field: str) -> None:
    """Refuse ``field`` when the request came by GET: it writes, and GET must not."""
    request = info.context.get("request") if isinstance(info.context, dict) else None
    if getattr(request, "method", None) == "GET":
        raise InvalidInput(field, "records session state and gaps; send it by POST, not GET")
