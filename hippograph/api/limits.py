"""Bounds on one request, so that no single request can stall the service (#21 part 2).

- ``BodyLimit``: an ASGI middleware refusing a body over ``max_body_bytes`` with 413, counting
  as the body streams in (a lying or absent ``Content-Length`` changes nothing).
- ``JsonDepthLimit`` (``api/jsondepth.py``): JSON nested too deep, refused before parsing.
- ``RequestLimits``: a Strawberry extension bounding the document's size (before parsing),
  tokens (a proxy for total fields: the parser stops counting past the limit), depth
  (introspection included) and aliases, from the runtime's settings.
- ``charge_k``: called by every resolver taking ``k``; ``k`` summed over one request is bounded.
- ``refuse_get``: a query field with side effects (recall) is refused over GET, which a browser
  can be made to send cross-site.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from graphql import GraphQLError
from graphql.language import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
)
from graphql.language.visitor import SKIP
from graphql.validation import ASTValidationRule
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
    rules = tuple(rule for limiter in limiters for rule in limiter.validation_rules)
    return (*rules, _introspection_depth(max(max_depth, INTROSPECTION_DEPTH)))


# Strawberry's depth limiter skips every field starting with "__" and all below it, so
# `{ __schema { types { fields { type { ofType { ofType ... } } } } } }` went as deep as the
# token limit let it. An operation that introspects is measured whole, with the depth the
# standard introspection query needs (graphql-js 16's, GraphiQL's: 9 levels of ofType) when
# HIPPOGRAPH_MAX_QUERY_DEPTH is lower.
INTROSPECTION_DEPTH = 14
_INTROSPECTS = re.compile(r"__(?:schema|type)\b")


def _introspection_depth(max_depth: int) -> type[ASTValidationRule]:
    class IntrospectionDepth(ASTValidationRule):
        def enter_operation_definition(self, node: OperationDefinitionNode, *_: Any) -> Any:
            source = self.context.document.loc.source.body if self.context.document.loc else ""
            if not _INTROSPECTS.search(source):
                return SKIP
            fragments = {
                d.name.value: d
                for d in self.context.document.definitions
                if isinstance(d, FragmentDefinitionNode)
            }
            if _height(node.selection_set, fragments, max_depth, {}) > max_depth:
                self.report_error(
                    GraphQLError(
                        f"introspection exceeds maximum operation depth of {max_depth}", node
                    )
                )
            return SKIP

    return IntrospectionDepth


def _height(
    selections: SelectionSetNode,
    fragments: dict[str, FragmentDefinitionNode],
    budget: int,
    memo: dict[str, int],
    seen: frozenset[str] = frozenset(),
) -> int:
    """How many levels the fields below ``selections`` go (0: leaves only). It stops once past
    ``budget``, and works out each fragment once (``memo``), so neither a deep document nor
    fragments spreading each other twice over make it long."""
    highest = 0
    for selection in selections.selections:
        if isinstance(selection, FieldNode):
            if selection.selection_set is None:
                continue
            found = 1 + _height(selection.selection_set, fragments, budget - 1, memo, seen)
        elif isinstance(selection, InlineFragmentNode):
            found = _height(selection.selection_set, fragments, budget, memo, seen)
        elif isinstance(selection, FragmentSpreadNode):
            name = selection.name.value
            if name in seen or name not in fragments:
                continue  # a cycle or an unknown fragment: other rules refuse those
            if name not in memo:
                below = fragments[name].selection_set
                memo[name] = _height(below, fragments, budget, memo, seen | {name})
            found = memo[name]
        else:
            continue
        highest = max(highest, found)
        if highest > budget:
            break  # past the cap: every caller above is past its own
    return highest


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


def by_get(info: Info) -> bool:
    """True when the request came by GET, which must have no side effect."""
    request = info.context.get("request") if isinstance(info.context, dict) else None
    return getattr(request, "method", None) == "GET"


def refuse_get(info: Info, field: str) -> None:
    """Refuse ``field`` when the request came by GET: it writes, and GET must not."""
    if by_get(info):
        raise InvalidInput(field, "records session state and gaps; send it by POST, not GET")
