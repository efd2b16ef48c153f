"""The browser pages the service serves itself, and their files: GraphiQL at /graphql, the
graph explorer at /explore.

Third-party browser code comes from the npm registry at install time, never from a CDN at run
time: ``web/package.json`` names the packages (exact versions, locked in
``web/package-lock.json``) and ``make install`` runs ``npm ci`` into the git-ignored
``web/node_modules``. Only the files listed in ``VENDOR`` are served, at
``/static/vendor/<path under node_modules>``; the rest of node_modules (the browser-test driver
among it) stays private. Our own page code lives in ``web/pages`` and is served at
``/static/pages/<file>``.

A new page adds its npm packages to web/package.json, the files it loads to ``VENDOR``, and its
own HTML, script and style to web/pages.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from hippograph.settings import Settings

GRAPHIQL_FILES = (
    "react/umd/react.production.min.js",
    "react-dom/umd/react-dom.production.min.js",
    "graphiql/graphiql.min.js",
    "graphiql/graphiql.min.css",
)
EXPLORER_FILES = ("cytoscape/dist/cytoscape.min.js",)
# Every file of web/node_modules a page may load; anything else there answers 404.
VENDOR = frozenset(GRAPHIQL_FILES + EXPLORER_FILES)

# The pages load only what this server sends; the GraphQL endpoint is the page's own origin.
# GraphiQL sets inline styles and its CSS embeds its fonts and icons as data: URLs.
CSP = (
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
INSTALL_HINT = (
    "Run `make install` in the Hippograph checkout (it runs `npm ci` in web/, which needs "
    "Node.js 18+ with npm), or `npm ci --omit=dev` in {web_dir}, then reload."
)


def missing(web_dir: Path, files: tuple[str, ...]) -> list[str]:
    """The ``files`` (paths under node_modules) not installed in ``web_dir``."""
    return [name for name in files if not (web_dir / "node_modules" / name).is_file()]


def graphiql_page(web_dir: Path) -> Response:
    """GraphiQL from this server's files, or a page that says how to install them.

    web_dir: the folder holding package.json, node_modules and pages (``HIPPOGRAPH_WEB_DIR``).
    """
    return _page(web_dir, "graphiql.html", GRAPHIQL_FILES, "GraphiQL")


def explorer_page(web_dir: Path) -> Response:
    """The graph explorer (web/pages/explore.*, on cytoscape), or how to install its files."""
    return _page(web_dir, "explore.html", EXPLORER_FILES, "The graph explorer")


def _page(web_dir: Path, name: str, files: tuple[str, ...], title: str) -> Response:
    absent = missing(web_dir, files)
    page = web_dir / "pages" / name
    if absent or not page.is_file():
        return HTMLResponse(_install_page(web_dir, absent or [str(page)], title), status_code=503)
    return HTMLResponse(page.read_text(encoding="utf-8"), headers={"Content-Security-Policy": CSP})


def routes(settings: Settings) -> list[BaseRoute]:
    """/explore (unless ``HIPPOGRAPH_EXPLORER=0``), /static/vendor/... (the listed npm files)
    and /static/pages/... (our page code)."""
    web_dir = settings.server.web_dir

    async def explorer(request: Request) -> Response:
        return explorer_page(web_dir)

    async def vendor(request: Request) -> Response:
        name = request.path_params["path"]
        path = web_dir / "node_modules" / name
        if name not in VENDOR:
            return PlainTextResponse("Not Found", status_code=404)
        if not path.is_file():
            hint = INSTALL_HINT.format(web_dir=web_dir)
            return PlainTextResponse(f"{name} is not installed. {hint}", status_code=404)
        return FileResponse(path)

    pages: list[BaseRoute] = [Route("/explore", explorer)] if settings.server.explorer else []
    return [
        *pages,
        Route("/static/vendor/{path:path}", vendor),
        Mount("/static/pages", StaticFiles(directory=web_dir / "pages", check_dir=False)),
    ]


def _install_page(web_dir: Path, absent: list[str], title: str) -> str:
    items = "".join(f"<li><code>{escape(name)}</code></li>" for name in absent)
    hint = escape(INSTALL_HINT.format(web_dir=web_dir))
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8" />'
        f"<title>Hippograph {escape(title)}: not installed</title></head><body>"
        f"<h1>{escape(title)}'s files are not installed</h1>"
        f"<p>{hint}</p><p>Missing under {escape(str(web_dir / 'node_modules'))}:</p>"
        f"<ul>{items}</ul><p>The GraphQL endpoint itself works: POST a query to this URL."
        "</p></body></html>"
    )
