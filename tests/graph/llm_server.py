"""A real local HTTP server speaking the OpenAI chat-completions API, for LLM-path tests."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Endpoint:
    """What the server answers next (``content``, or a list ``script`` of contents answered in
    turn), and every request it got."""

    url: str = ""
    status: int = 200
    content: str = '{"facts": []}'
    script: list[str] = field(default_factory=list)
    delay_s: float = 0.0
    requests: list[tuple[str, dict[str, str], Any]] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    def body(self) -> bytes:
        if self.status >= 400:
            return b'{"error": {"message": "upstream exploded", "type": "server_error"}}'
        content = self.script.pop(0) if self.script else self.content
        message = {"role": "assistant", "content": content}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        return json.dumps({"id": "c1", "object": "chat.completion", "choices": [choice]}).encode()


def _handler(endpoint: Endpoint) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            sent = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            endpoint.requests.append((self.path, dict(self.headers.items()), sent))
            if endpoint.delay_s:
                endpoint.release.wait(endpoint.delay_s)
            body = endpoint.body()
            try:
                self.send_response(endpoint.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up waiting (timeout tests)

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler


def serve() -> Iterator[Endpoint]:
    state = Endpoint()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    yield state
    state.release.set()
    server.shutdown()
    server.server_close()
    thread.join()
