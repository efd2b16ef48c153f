"""The ``Host`` header checked against ``HIPPOGRAPH_ALLOWED_HOSTS`` (against DNS rebinding: a
page on an attacker's name that resolves to 127.0.0.1 sends its own name as the Host).

Starlette's ``TrustedHostMiddleware`` cuts the header at the first colon, so ``[::1]:8000``
never matched ``::1``; this one parses IPv6 literals.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send


def host_name(header: str) -> str:
    """The name of a Host header, without the port, lowercased (``[::1]:80`` -> ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class HostCheck:
    """Answer 421 (Misdirected Request, as the MCP SDK does) to an HTTP request whose Host is
    not one of ``allowed`` (``*``: any).

    Args:
        app: the wrapped ASGI app.
        allowed: host names, lowercased, without ports.
    """

    def __init__(self, app: ASGIApp, *, allowed: tuple[str, ...]) -> None:
        self.app = app
        self.allowed = frozenset(allowed)
        self.any = "*" in self.allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self.any:
            await self.app(scope, receive, send)
            return
        name = host_name(Headers(scope=scope).get("host", ""))
        if name in self.allowed:
            await self.app(scope, receive, send)
            return
        response = PlainTextResponse(
            "Host header not allowed: add it to HIPPOGRAPH_ALLOWED_HOSTS", status_code=421
        )
        await response(scope, receive, send)
