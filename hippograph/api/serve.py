"""``hippograph serve``: the API under uvicorn, started and stopped cleanly.

The listening socket is bound before anything else starts, so a port already in use fails at
once (``PortInUse``, exit 2) instead of after the engine took the data directory. SIGINT and
SIGTERM both shut down gracefully, within 10 s under load: at the signal new heavy work is
refused and embeddings not yet started fail (``Runtime.stop_work``); requests in flight get
``SHUTDOWN_GRACE_S``; the lifespan closes the runtime, waiting at most ``STOP_WAIT_S`` for
transactions still running (then rolled back) before the engine releases the data directory;
and the process exits with 130 or 143, the shell's codes for a process ended by those
signals.
"""

from __future__ import annotations

import ctypes
import signal
import socket
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import FrameType
from typing import TYPE_CHECKING

from hippograph.graph.errors import HippographError
from hippograph.settings import Settings

if TYPE_CHECKING:
    from hippograph.graph.runtime import Runtime

# glibc's mallopt parameter for the most malloc arenas (malloc.h).
M_ARENA_MAX = -8
# Seconds requests in flight get to finish once a stop is asked for.
SHUTDOWN_GRACE_S = 5
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class PortInUse(HippographError):
    """The API's address cannot be bound (another process listens there)."""

    code = "PORT_IN_USE"


def listen_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` (as uvicorn binds it: SO_REUSEADDR, which on
    Linux still refuses a port another socket listens on). Raises PortInUse naming the
    address and how to choose another."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        raise PortInUse(f"cannot listen on {host}:{port}: {exc.strerror}") from exc
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise PortInUse(
            f"cannot listen on {host}:{port}: {exc.strerror}. Stop the process using it, or "
            "choose another port with --port or HIPPOGRAPH_PORT"
        ) from exc
    return sock


def run(settings: Settings, sock: socket.socket, *, on_ready: Callable[[], None]) -> int:
    """Serve the API on ``sock`` (from ``listen_socket``, closed here) until SIGINT or SIGTERM;
    return the exit status (0 after a normal stop, 1 when the app failed to start)."""
    cap_malloc_arenas(settings.server.malloc_arenas)  # before any thread allocates
    # The engine's JVM and the model start on a thread of their own while this one imports the
    # app (GraphQL, MCP, uvicorn): the JVM's start is mostly its own native threads, the imports
    # hold the GIL, and on two cores each took several seconds one after the other.
    opening = ThreadPoolExecutor(1, thread_name_prefix="open").submit(_open, settings)
    import uvicorn

    from hippograph.api.app import create_app

    app = create_app(settings, on_ready=on_ready, opening=opening)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=SHUTDOWN_GRACE_S)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            # At the signal, not after the grace: work queued behind the busy slots (each
            # embedding a batch on the model's lock) would otherwise run on long after it.
            runtime = getattr(app.state, "runtime", None)
            if runtime is not None:
                runtime.stop_work()
            super().handle_exit(sig, frame)

    server = Server(config)
    # uvicorn handles both signals while it runs, then raises the one it caught again with the
    # handler it found: ours, so that both end through Python's exit (atexit included) with
    # the same status whatever the parent did to the signals (a background job of a
    # non-interactive shell starts with SIGINT ignored).
    previous = {sig: signal.signal(sig, _exit_on_signal) for sig in STOP_SIGNALS}
    try:
        server.run(sockets=[sock])
    finally:
        for sig, handler in previous.items():
            if handler is not None:
                signal.signal(sig, handler)
        sock.close()
    return 0 if server.started else 1


def cap_malloc_arenas(arenas: int) -> bool:
    """Limit glibc's malloc to ``arenas`` arenas (0: leave its default); True when applied.
    Another C library (musl) has no such knob: nothing to do there."""
    if arenas <= 0:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_ARENA_MAX, arenas))


def _open(settings: Settings) -> Runtime:
    from hippograph.graph.runtime import Runtime

    return Runtime.open(settings, attach=False)


def _exit_on_signal(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)
