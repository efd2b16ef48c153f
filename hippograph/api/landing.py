"""``GET /``: what this server offers, as links (GraphiQL, the explorer, health, metrics, the
docs), and ``GET /docs/<file>.md``: the checkout's README and docs/ as plain text.

Plain HTML of our own, no script and no third-party code: the page must work when the npm files
of the other pages are not installed, and says so when they are not. The docs are served rather
than linked to a repository: they then match the version that runs, and reach a user with no
network beyond this server; only the listed Markdown files, read-only. Their relative links stay
among those files (tests/docs/test_links.py), so they work under /docs/ as in the repository.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from hippograph.api import web
from hippograph.settings import Settings

# No script at all; the inline style is the page's only styling.
CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'"
STYLE = (
    "body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem}"
    "li{margin:.4rem 0}code{background:#f3f3f3;padding:0 .2rem}.off{color:#777}"
)


def docs_files(root: Path) -> list[str]:
    """The Markdown files ``/docs/`` serves: README.md, then docs/**/*.md, relative to ``root``
    (the checkout holding web/)."""
    found = ["README.md"] if (root / "README.md").is_file() else []
    docs = root / "docs"
    if docs.is_dir():
        found += sorted(p.relative_to(root).as_posix() for p in docs.rglob("*.md"))
    return found


def title(path: Path) -> str:
    """A doc's first heading, else its file name."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return path.name


def routes(settings: Settings) -> list[BaseRoute]:
    """``/`` and ``/docs/{path}``; the docs are read from the parent of ``HIPPOGRAPH_WEB_DIR``."""
    root = settings.server.web_dir.resolve().parent

    async def landing(request: Request) -> Response:
        docs = [(name, title(root / name)) for name in docs_files(root)]
        return HTMLResponse(page(settings, docs), headers={"Content-Security-Policy": CSP})

    async def doc(request: Request) -> Response:
        name = request.path_params["path"]
        if name not in docs_files(root):  # only the listed files: no path leaves the checkout
            return PlainTextResponse("Not Found", status_code=404)
        text = (root / name).read_text(encoding="utf-8")
        return PlainTextResponse(text, media_type="text/markdown; charset=utf-8")

    return [Route("/", landing), Route("/docs/{path:path}", doc)]


def page(settings: Settings, docs: list[tuple[str, str]]) -> str:
    """The landing page's HTML; ``docs`` are (file, title) pairs."""
    server = settings.server
    graphiql_ready = not web.missing(server.web_dir, web.GRAPHIQL_FILES)
    explorer_ready = not web.missing(server.web_dir, web.EXPLORER_FILES)
    items = [
        _item(
            "/graphql", "GraphiQL", "write and run GraphQL queries against this server",
            on=server.graphiql, ready=graphiql_ready, variable="HIPPOGRAPH_GRAPHIQL",
        ),
        _item(
            "/explore", "Graph explorer", "browse a namespace's memories and their links",
            on=server.explorer, ready=explorer_ready, variable="HIPPOGRAPH_EXPLORER",
        ),
        _item("/healthz", "Health", "whether the graph and the model are up (JSON)"),
        _item("/metrics", "Metrics", "request, recall, job and error counters (Prometheus)"),
    ]  # fmt: skip
    doc_items = "".join(
        f'<li><a href="/docs/{escape(name)}">{escape(heading)}</a> <code>{escape(name)}</code></li>'
        for name, heading in docs
    )
    doc_list = f"<ul>{doc_items}</ul>" if docs else "<p>No docs next to this server's files.</p>"
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8" />'
        '<meta name="viewport" content="width=device-width, initial-scale=1" />'
        f"<title>Hippograph</title><style>{STYLE}</style></head><body>"
        "<h1>Hippograph</h1><p>Long-term memory for AI agents on a property graph. "
        "The API is GraphQL at <code>POST /graphql</code> and MCP at <code>/mcp</code>.</p>"
        f"<ul>{''.join(items)}</ul><h2>Docs</h2>{doc_list}</body></html>"
    )


def _item(
    href: str, title: str, what: str, *, on: bool = True, ready: bool = True, variable: str = ""
) -> str:
    if not on:
        return f'<li class="off">{escape(title)}: off ({escape(variable)}=0)</li>'
    note = "" if ready else " (its files are not installed: the page says how)"
    return f'<li><a href="{escape(href)}">{escape(title)}</a>: {escape(what)}{note}</li>'
