"""``JsonDepthLimit``: an ASGI middleware refusing JSON nested deeper than ``max_depth`` (a
request's body, or a GET's query string) with a typed 400 before any parser sees it. The JSON
decoder and GraphQL's variable coercion recurse: 100,000 nested brackets were an HTTP 500
(RecursionError) with a traceback.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_to_bytes

import numpy as np
from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from hippograph.graph.errors import InvalidInput

_STRING = re.compile(rb'"[^"]*"')  # linear: no quote inside, so no backtracking
_STEPS = bytes.maketrans(b"[]{}", b"\x01\xff\x01\xff")  # +1 and -1 as int8
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_CHUNK = 1 << 22


def json_too_deep(data: bytes, max_depth: int) -> bool:
    """True when the JSON text ``data`` nests arrays and objects deeper than ``max_depth``.
    Linear and in C but for a cumulative sum per 4 MiB: escapes dropped, strings cut out, the
    brackets left as +1/-1 steps whose running sum is the depth (~2 s for 64 MiB of brackets,
    a few ms for ordinary bodies, which the first count settles)."""
    if data.count(b"[") + data.count(b"{") <= max_depth:
        return False
    unescaped = data.replace(b"\\\\", b"").replace(b'\\"', b"")
    steps = _STRING.sub(b"", unescaped).translate(_STEPS, _NOT_BRACKETS)
    level = 0
    for start in range(0, len(steps), _CHUNK):
        count = min(_CHUNK, len(steps) - start)
        walk = np.cumsum(np.frombuffer(steps, np.int8, count, start), dtype=np.int64) + level
        if int(walk.max()) > max_depth:
            return True
        level = int(walk[-1])
    return False


class JsonDepthLimit:
    """Answer 400 (``BAD_INPUT``, field ``body``) to a request whose JSON nests deeper than
    ``max_depth``: a POST's body, a GET's query string (GraphQL's ``variables``).

    Args:
        app: the wrapped ASGI app (inside ``BodyLimit``, which bounds what is read here).
        max_depth: the deepest nesting of arrays and objects accepted.
    """

    def __init__(self, app: ASGIApp, *, max_depth: int) -> None:
        self.app = app
        self.max_depth = max_depth

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "POST"):
            await self.app(scope, receive, send)
            return
        if scope["method"] == "GET":
            query = unquote_to_bytes(scope.get("query_string", b"").replace(b"+", b" "))
            if await self._too_deep(query):
                await self._refuse(scope, receive, send)
            else:
                await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        message: Message = {"type": "http.request", "more_body": True}
        while message["type"] == "http.request" and message.get("more_body", False):
            message = await receive()
            chunks.append(message.get("body", b""))
        if message["type"] != "http.request":
            return  # the client went away
        body = b"".join(chunks)
        if await self._too_deep(body):
            await self._refuse(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _too_deep(self, data: bytes) -> bool:
        if data.count(b"[") + data.count(b"{") <= self.max_depth:
            return False  # most requests: settled without leaving the event loop
        return await run_in_threadpool(json_too_deep, data, self.max_depth)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        error = InvalidInput(
            "body",
            f"JSON nested deeper than {self.max_depth} levels (HIPPOGRAPH_MAX_JSON_DEPTH)",
            limit=self.max_depth,
        )
        body = {"errors": [{"message": error.message, "extensions": error.extensions()}]}
        await JSONResponse(body, status_code=400)(scope, receive, send)
