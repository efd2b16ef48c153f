"""The MCP server: the memory actions as MCP tools, over stdio (``hippograph mcp``) and over
Streamable HTTP inside the app (``/mcp``).

A tool call executes its GraphQL document in-process against the app's schema, with the same
context the GraphQL endpoint builds, so validation, privacy filtering and error mapping are the
API's own. The namespace is never a tool argument: over stdio it is the server's
(``--namespace`` or ``HIPPOGRAPH_MCP_NAMESPACE``); over HTTP ``http_caller`` decides it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from starlette.requests import Request

from hippograph.api.access import (
    OPEN,
    Access,
    Principal,
    admitted,
    authorize,
    bearer,
    source_of,
)
from hippograph.api.mcp_tools import BY_NAME, TOOLS
from hippograph.api.schema import schema
from hippograph.client.errors import BAD_REQUEST
from hippograph.graph import validate
from hippograph.graph.errors import HippographError, InvalidInput
from hippograph.graph.runtime import Runtime
from hippograph.settings import Settings

log = logging.getLogger(__name__)
NAMESPACE_HEADER = "X-Hippograph-Namespace"
INVALID_PARAMS = -32602
INSTRUCTIONS = (
    "Long-term memory. Call recall with the current turn to get what is relevant; remember what "
    "you learn (facts, preferences, procedures, corrections, negative rules); ingest raw "
    "conversation turns to have facts extracted; give feedback on what helped."
)


@dataclass(frozen=True, kw_only=True)
class Caller:
    """Who calls a tool: the runtime serving them and the namespace they may use."""

    runtime: Runtime
    namespace: str
    request: Request | None = None
    principal: Principal = OPEN
    access: Access | None = None


CallerOf = Callable[[Request | None], Awaitable[Caller]]


def build_server(caller_of: CallerOf) -> Server[Any]:
    """The MCP server; ``caller_of`` turns a tool call's HTTP request (None over stdio) into
    the caller, raising a Hippograph error when it may not call."""

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[spec.tool for spec in TOOLS])

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        spec = BY_NAME.get(params.name)
        if spec is None:
            raise MCPError(INVALID_PARAMS, f"unknown tool {params.name!r}")
        arguments = dict(params.arguments or {})
        unknown = sorted(set(arguments) - spec.arguments)
        if unknown:
            return _error(
                InvalidInput.code,
                f"{unknown[0]}: not an argument of {spec.name} (it takes "
                f"{', '.join(sorted(spec.arguments))}; the namespace is the server's)",
                {"field": unknown[0]},
            )
        request = ctx.request if isinstance(ctx.request, Request) else None
        try:
            caller = await caller_of(request)
        except HippographError as exc:  # a bad namespace header; the graph would not open
            return _error(exc.code, exc.message, exc.extensions())
        return await execute(spec.document, arguments, caller)

    return Server(
        "hippograph",
        version=_version(),
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def execute(document: str, arguments: dict[str, Any], caller: Caller) -> types.CallToolResult:
    """Run ``document`` in-process as the GraphQL endpoint would; a GraphQL error becomes a tool
    error carrying its ``extensions`` (code, field, limit...)."""
    result = await schema.execute(
        document,
        variable_values={**arguments, "namespace": caller.namespace},
        context_value={
            "request": caller.request,
            "response": None,
            "runtime": caller.runtime,
            "principal": caller.principal,
            "access": caller.access,
        },
    )
    if result.errors:
        first = result.errors[0]
        extensions = dict(first.extensions or {})
        # No code: the GraphQL layer refused the request before a resolver ran (a variable of
        # the wrong type); the client library reports the same code for it.
        return _error(str(extensions.pop("code", BAD_REQUEST)), first.message, extensions)
    data = result.data or {}
    return types.CallToolResult(
        content=[types.TextContent(text=json.dumps(data))], structured_content=data
    )


def _error(code: str, message: str, details: dict[str, object]) -> types.CallToolResult:
    body = {**details, "code": code, "message": message}
    return types.CallToolResult(content=[types.TextContent(text=json.dumps(body))], is_error=True)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hippograph")
    except PackageNotFoundError:  # running from a source tree that is not installed
        return "0"


# --- Streamable HTTP, inside the app ------------------------------------------------------


async def http_caller(request: Request | None) -> Caller:
    """The caller of a tool over HTTP: the key in ``Authorization: Bearer`` decides. The
    namespace is the ``X-Hippograph-Namespace`` header, else the key's one namespace when it is
    bound to exactly one, else ``HIPPOGRAPH_MCP_NAMESPACE``; a namespace the key does not cover
    is refused (FORBIDDEN) before any tool runs, and each tool's field is checked again."""
    if request is None:
        raise RuntimeError("the HTTP transport hands every tool call its request")
    rt: Runtime = request.app.state.runtime
    access: Access = request.app.state.access
    try:
        principal = await admitted(access, bearer(request.headers.get("authorization")))
    except HippographError as exc:  # no valid key: counted and sampled (``api/audit.py``)
        access.audit.refused(source=source_of(request), operation="mcp", namespace=None,
                             outcome=exc.code)  # fmt: skip
        raise
    header = request.headers.get(NAMESPACE_HEADER)
    if header is not None:
        namespace = validate.namespace(header, NAMESPACE_HEADER)
    elif len(principal.namespaces) == 1 and not principal.namespaces[0].endswith("*"):
        namespace = principal.namespaces[0]
    else:
        namespace = rt.settings.server.mcp_namespace
    authorize(principal, namespace, "read", "mcp")
    return Caller(
        runtime=rt, namespace=namespace, request=request, principal=principal, access=access
    )


@dataclass(frozen=True)
class HttpMount:
    """The ASGI endpoint for ``/mcp`` and the session manager the app's lifespan must run."""

    endpoint: StreamableHTTPASGIApp
    manager: StreamableHTTPSessionManager

    def run(self) -> AbstractAsyncContextManager[None]:
        return self.manager.run()


def http_mount(host: str) -> HttpMount:
    """Streamable HTTP, stateless (every POST stands alone, so any worker can answer it) with
    JSON responses. Bound to loopback, Host and Origin are checked (DNS rebinding)."""
    manager = StreamableHTTPSessionManager(
        app=build_server(http_caller),
        json_response=True,
        stateless=True,
        security_settings=_loopback_only() if host in ("127.0.0.1", "localhost", "::1") else None,
    )
    return HttpMount(StreamableHTTPASGIApp(manager), manager)


def _loopback_only() -> TransportSecuritySettings:
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
    )


# --- stdio, for `hippograph mcp` -----------------------------------------------------------


async def serve_stdio(settings: Settings, namespace: str, principal: Principal = OPEN) -> None:
    """Serve MCP on stdin/stdout for ``namespace`` (as ``principal``: ``hippograph mcp``
    checked its key for that namespace). The graph opens in the background (attaching
    to a running server's engine like every CLI command), so the client's handshake is answered
    at once and the first tool call waits for it."""
    validate.namespace(namespace)
    access = Access.of(settings)
    async with _runtime_in_background(settings) as runtime_of, stdio_server() as streams:

        async def caller_of(request: Request | None) -> Caller:
            return Caller(
                runtime=await runtime_of(), namespace=namespace, principal=principal, access=access
            )

        server = build_server(caller_of)
        await server.run(streams[0], streams[1], server.create_initialization_options())


@asynccontextmanager
async def _runtime_in_background(
    settings: Settings,
) -> AsyncIterator[Callable[[], Awaitable[Runtime]]]:
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hippograph-open")
    opening: Future[Runtime] = pool.submit(Runtime.open, settings, attach=True)

    async def runtime() -> Runtime:
        return await anyio.to_thread.run_sync(opening.result)

    try:
        yield runtime
    finally:
        pool.shutdown(wait=True)
        if opening.exception() is None:
            await anyio.to_thread.run_sync(opening.result().close)
