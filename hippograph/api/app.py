"""The Starlette app: GraphQL (with GraphiQL) at /graphql, MCP (Streamable HTTP) at /mcp,
liveness at /healthz, Prometheus metrics at /metrics, a landing page at / (api/landing.py), the
pages' files under /static (api/web.py).

The graph driver, the embedded engine and the embedding model open once, in the lifespan,
which then finishes, in the background, any rebuild that died midway (``jobs.consolidate``).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from strawberry.asgi import GraphQL

from hippograph.api import landing, metrics, web
from hippograph.api.access import Access, admit, bearer
from hippograph.api.health import GraphProbe
from hippograph.api.hosts import HostCheck
from hippograph.api.jsondepth import JsonDepthLimit
from hippograph.api.limits import BodyLimit
from hippograph.api.mcp import http_mount
from hippograph.api.schema import schema
from hippograph.graph.errors import HippographError, RateLimited
from hippograph.graph.recall import warmup
from hippograph.graph.runtime import Runtime
from hippograph.jobs.background import BackgroundJobs
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.consolidate import finish_rebuilds
from hippograph.settings import Settings

log = logging.getLogger(__name__)
# How long shutdown waits for an in-process job to finish its current batch.
JOBS_STOP_S = 10.0


class HippographGraphQL(GraphQL[dict[str, Any], None]):
    def __init__(self, settings: Settings) -> None:
        # GraphiQL is our page on our own files (api/web.py), not Strawberry's CDN-loaded one;
        # with HIPPOGRAPH_GRAPHIQL=0 a browser's GET /graphql answers 404.
        super().__init__(schema, graphql_ide="graphiql" if settings.server.graphiql else None)
        self.web_dir = settings.server.web_dir

    async def render_graphql_ide(self, request: Request) -> Response:
        return web.graphiql_page(self.web_dir)

    async def get_context(self, request: Any, response: Any = None) -> dict[str, Any]:
        state = request.app.state
        principal = await caller(request)
        if isinstance(principal, RateLimited) and response is not None:
            response.status_code = 429
            response.headers["Retry-After"] = str(principal.retry_after_s)
        return {
            "request": request,
            "response": response,
            "runtime": state.runtime,
            "settings": state.settings,
            "access": state.access,
            "principal": principal,
        }


async def caller(request: Request) -> Any:
    """The request's principal (``api/access.py``), or the Unauthenticated or RateLimited error
    each field will raise: refused per field, so that the answer carries the typed error."""
    access: Access = request.app.state.access
    try:
        token = bearer(request.headers.get("authorization"))
        return await run_in_threadpool(admit, access, token)
    except HippographError as exc:
        return exc


async def healthz(request: Request) -> JSONResponse:
    rt: Runtime | None = getattr(request.app.state, "runtime", None)
    probe: GraphProbe | None = getattr(request.app.state, "probe", None)
    if rt is None or probe is None:
        return JSONResponse({"status": "starting"}, status_code=503)
    graph = probe.health()  # the background probe's last answer: never waits on the engine
    body = {
        "status": "ok" if graph.up else "degraded",
        "backend": rt.store.dialect.name,
        "graph": "up" if graph.up else "down",
        "graph_checked_ms_ago": round(graph.checked_ms_ago, 1),
        "graph_ping_ms": None if graph.ping_ms is None else round(graph.ping_ms, 1),
        "embedder_loaded": rt.embedder.loaded,
        "embedding_model": rt.embedder.model_name,
        "embedding_backend": rt.embedder.backend,
    }
    return JSONResponse(body, status_code=200 if graph.up else 503)


def _warm(rt: Runtime) -> None:
    """Warm the recall path (``warmup.warm``); best effort: a failure is logged, not fatal."""
    try:
        warmup.warm(rt.store, rt.embedder, config=rt.cascade, services=rt.services)
    except Exception:  # noqa: BLE001 - a cold first recall is better than no server
        log.warning("recall warm-up failed; the first recall will be slower", exc_info=True)


def create_app(
    settings: Settings | None = None,
    *,
    runtime: Runtime | None = None,
    on_ready: Callable[[], None] | None = None,
    span_exporter: Any = None,
    opening: Future[Runtime] | None = None,
) -> Starlette:
    """Build the app. With ``runtime`` the caller owns it (tests share one engine); otherwise the
    lifespan opens one from ``settings`` (or the environment) and closes it on shutdown.
    ``span_exporter``: where traces go instead of the configured exporter (tests: the
    OpenTelemetry SDK's in-memory one); traces are on with it or with ``HIPPOGRAPH_TRACES``.
    ``opening``: the runtime being opened already (``serve`` starts it while it imports this
    module); the lifespan waits for it instead of opening one, and owns it the same."""
    if settings is None:
        settings = runtime.settings if runtime is not None else Settings.from_env()
    mcp = http_mount(settings.server.host)
    spans = None
    if settings.server.traces != "off" or span_exporter is not None:
        from hippograph.api import tracing  # OpenTelemetry: imported only when traces are on

        spans = tracing.provider(settings, span_exporter)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        access: Access = app.state.access
        loud = access.open or not access.keys.configured()  # open mode is logged at every start
        (log.warning if loud else log.info)("access: %s", access.describe())
        try:
            async with mcp.run(), _traced(), _runtime(app), _probed(app), _observed(app):
                yield
        finally:
            app.state.access.audit.flush()  # the refusals counted since the last summary

    @contextlib.asynccontextmanager
    async def _traced() -> AsyncIterator[None]:
        """The domain's stages traced while this app serves (when traces are on)."""
        if spans is None:
            yield
            return
        from hippograph.api import tracing

        with tracing.traced(spans):
            yield

    @contextlib.asynccontextmanager
    async def _observed(app: Starlette) -> AsyncIterator[None]:
        """/metrics hears of the runtime's recalls while this app serves it."""
        observers = app.state.runtime.recall_observers
        observers.append(app.state.metrics.recall)
        try:
            yield
        finally:
            observers.remove(app.state.metrics.recall)

    @contextlib.asynccontextmanager
    async def _runtime(app: Starlette) -> AsyncIterator[None]:
        if runtime is not None:
            app.state.runtime = runtime
            yield
            return
        if opening is not None:
            opened = await run_in_threadpool(opening.result)
        else:
            opened = await run_in_threadpool(Runtime.open, settings, attach=False)
        app.state.runtime = opened
        stop = threading.Event()
        jobs: BackgroundJobs | None = None
        try:
            await run_in_threadpool(_warm, opened)
            threading.Thread(
                target=finish_rebuilds, args=(opened, stop), name="rebuild-resume", daemon=True
            ).start()
            if settings.server.jobs:  # else `hippograph worker` runs them (jobs/background.py)
                config = JobsConfig.from_settings(settings)
                jobs = BackgroundJobs(opened.store, config, on_run=app.state.metrics.job_run)
                jobs.start()
            if on_ready is not None:
                on_ready()
            yield
        finally:
            stop.set()
            if jobs is not None:
                await run_in_threadpool(jobs.stop, JOBS_STOP_S)
            await run_in_threadpool(opened.close)

    @contextlib.asynccontextmanager
    async def _probed(app: Starlette) -> AsyncIterator[None]:
        """/healthz's graph probe, over whichever runtime ``_runtime`` set; stopped first."""
        probe = GraphProbe(app.state.runtime.store.ping)
        app.state.probe = await run_in_threadpool(probe.start)
        try:
            yield
        finally:
            probe.stop()

    # GET is for reading: Strawberry runs no mutation over it, and recall, which records session
    # state and gaps, refuses it (``limits.refuse_get``).
    routes = [
        Route("/graphql", HippographGraphQL(settings), methods=["GET", "POST"]),
        Route("/mcp", mcp.endpoint, methods=["GET", "POST", "DELETE"]),
        Route("/healthz", healthz),
        Route("/metrics", metrics.endpoint),
        *landing.routes(settings),
        *web.routes(settings),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.settings = settings  # the request limits (``api/limits.py``) read it
    app.state.metrics = metrics.Metrics()
    app.state.access = Access.of(settings)
    app.add_middleware(JsonDepthLimit, max_depth=settings.limits.max_json_depth)
    app.add_middleware(BodyLimit, max_bytes=settings.limits.max_body_bytes)  # outside the above
    if settings.security.cors_origin_list:  # CORS is off unless origins are named
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.security.cors_origin_list),
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "Content-Type", "X-Hippograph-Namespace"],
        )
    if spans is not None:
        from hippograph.api.tracing import RequestSpans

        app.add_middleware(RequestSpans, provider=spans)
    app.add_middleware(
        HostCheck, allowed=settings.security.allowed_host_names
    )  # outermost: runs first
    return app
