"""The ``hippograph`` command: serve the API, remember, recall, ingest, consolidate, run the
maintenance worker, export and import.

Every command prints what it did. ``remember``, ``search`` and ``recall`` are sent to a running
server of the data directory over HTTP (``cli_remote``); the other commands attach over Bolt to
the embedded engine of a running server when one holds the data directory.

Nothing heavy is imported here at the top (the engine, the model, GraphQL, numpy): a command
sent to a server, or ``--help``, starts in a fraction of a second; each command imports what it
runs.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from hippograph.api import cli_access, cli_context, cli_ingest, cli_jobs, cli_remote, cli_views
from hippograph.api.cli_common import data_dir_arg, readable, with_runtime
from hippograph.graph.errors import HippographError, InvalidInput
from hippograph.graph.model import NewMemory, RememberResult, ScoredMemory, Source
from hippograph.graph.recall.recall_config import REJECTED
from hippograph.settings import Settings

if TYPE_CHECKING:
    from hippograph.api.audit import AuditLog
    from hippograph.client import Client
    from hippograph.client.records import RecallResult as RemoteRecall
    from hippograph.graph.recall.results import RecallResult
    from hippograph.graph.runtime import Runtime

Command = Callable[[argparse.Namespace, Settings], int]
T = TypeVar("T")
# Long-running commands: their tool calls (mcp, through GraphQL) or job runs (worker) tell more.
UNAUDITED = frozenset({"cmd_mcp", "cmd_worker"})


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=getattr(logging, args.log_level.upper(), logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        settings = Settings.from_env(
            data_dir=getattr(args, "data_dir", None),
            host=getattr(args, "host", None),
            port=getattr(args, "port", None),
            insecure=getattr(args, "insecure", None) or None,
            serve_jobs=False if getattr(args, "no_jobs", False) else None,
        )
        command: Command = args.command
        name = getattr(command, "__name__", "")
        args.server = cli_remote.server_for(name, settings)
        if args.server is not None:  # the server checks the key and audits the request
            return command(args, settings)
        from hippograph.jobs.config import JobsConfig

        JobsConfig.from_settings(settings)  # every tunable checked before anything starts
        principal = cli_access.check(args, settings)
        args.principal = principal
    except HippographError as exc:
        print(f"error [{exc.code}]: {exc.message}", file=sys.stderr)
        return 2
    role, namespace = cli_access.required(args, settings)
    audited = role != "read" and name not in cli_access.EXEMPT and name not in UNAUDITED
    audit = _audit_log(settings) if audited else None
    try:
        status = command(args, settings)
    except HippographError as exc:
        if audit is not None:
            audit.record(key_id=principal.key_id, operation=name.removeprefix("cmd_"),
                         namespace=namespace, outcome=exc.code)  # fmt: skip
        print(f"error [{exc.code}]: {exc.message}", file=sys.stderr)
        return 2
    if audit is not None:
        outcome = "ok" if status == 0 else f"exit {status}"
        audit.record(key_id=principal.key_id, operation=name.removeprefix("cmd_"),
                     namespace=namespace, outcome=outcome,
                     counts=getattr(args, "audit_counts", None))  # fmt: skip
    return status


def _audit_log(settings: Settings) -> AuditLog:
    from hippograph.api.access import Access

    return Access.of(settings).audit


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hippograph", description=__doc__)
    parser.add_argument("--log-level", default="WARNING", help="DEBUG, INFO, WARNING (default)")
    sub = parser.add_subparsers(required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="run the GraphQL API (embedded graph unless a URI is set)")
    serve.add_argument("--host", default=None, help="bind address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=None, help="port (default 8000)")
    serve.add_argument(
        "--insecure", action="store_true",
        help="serve with no API key on a non-loopback address (anyone can use every namespace)",
    )  # fmt: skip
    serve.add_argument(
        "--no-jobs", action="store_true",
        help="run no maintenance jobs here (a separate `hippograph worker` runs them)",
    )  # fmt: skip
    data_dir_arg(serve)
    serve.set_defaults(command=cmd_serve)

    mcp = sub.add_parser("mcp", help="serve the memory tools over MCP on stdin/stdout")
    mcp.add_argument(
        "--namespace", "-n", default=None, help="default: HIPPOGRAPH_MCP_NAMESPACE, else 'default'"
    )
    data_dir_arg(mcp)
    mcp.set_defaults(command=cmd_mcp)

    rem = sub.add_parser("remember", help="remember one memory and print it")
    rem.add_argument("content")
    rem.add_argument("--namespace", "-n", default="default")
    rem.add_argument("--type", dest="memory_type", default="fact")
    rem.add_argument("--scope", default="global")
    rem.add_argument("--project")
    rem.add_argument("--session")
    rem.add_argument("--tag", action="append", default=[])
    data_dir_arg(rem)
    rem.set_defaults(command=cmd_remember)

    search = sub.add_parser("search", help="vector top-k over active memories")
    search.add_argument("query")
    search.add_argument("--namespace", "-n", default="default")
    search.add_argument("-k", type=int, default=10)
    search.add_argument("--project")
    search.add_argument("--session")
    data_dir_arg(search)
    search.set_defaults(command=cmd_search)

    rec = sub.add_parser("recall", help="what is relevant to a context (the retrieval cascade)")
    rec.add_argument("context")
    rec.add_argument("--namespace", "-n", default="default")
    rec.add_argument("-k", type=int, default=10)
    rec.add_argument("--project")
    rec.add_argument("--session")
    rec.add_argument("--explain", action="store_true", help="print how each memory was found")
    rec.add_argument(
        "--verify", action="store_true", help="ask the configured LLM which results are relevant"
    )
    rec.add_argument(
        "--rejected",
        choices=REJECTED,
        default="drop",
        help="what --verify does with a rejected result (default drop)",
    )
    rec.add_argument(
        "--include-gap",
        action="store_true",
        help="when nothing relevant is found, print the nearest memories anyway",
    )
    data_dir_arg(rec)
    rec.set_defaults(command=cmd_recall)

    form = sub.add_parser("form", help="graph formation: link consecutive conversation turns")
    form.add_argument("--namespace", "-n", default="default")
    data_dir_arg(form)
    form.set_defaults(command=cmd_form)

    exp = sub.add_parser("export", help="write memories, tags, clusters and edges as JSON Lines")
    exp.add_argument("--out", "-o", required=True, type=Path)
    exp.add_argument("--namespace", "-n", default=None, help="one namespace (default: all)")
    for flag in ("--project", "--session"):
        exp.add_argument(flag, help="export what this caller sees, as recall (default: all)")
    data_dir_arg(exp)
    exp.set_defaults(command=cmd_export)

    imp = sub.add_parser("import", help="load a JSON Lines export (idempotent)")
    imp.add_argument("--in", "-i", dest="source", required=True, type=Path)
    data_dir_arg(imp)
    imp.set_defaults(command=cmd_import)

    cli_access.register(sub)
    cli_ingest.register(sub)
    cli_jobs.register(sub)
    cli_context.register(sub)
    cli_views.register(sub)
    return parser


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from hippograph.api import serve
    from hippograph.graph.store.engine import ensure_free

    logging.getLogger("hippograph").setLevel(logging.INFO)
    refuse_open_exposure(settings)
    if settings.graph.embedded:
        ensure_free(settings.graph.data_dir)  # fail fast, before the web server starts
    sock = serve.listen_socket(
        settings.server.host, settings.server.port
    )  # and before the engine starts
    url = f"http://{settings.server.host}:{settings.server.port}/graphql"
    page = "GraphiQL" if settings.server.graphiql else "GraphQL"  # HIPPOGRAPH_GRAPHIQL=0: no page
    where = settings.graph.uri or f"embedded ArcadeDB in {settings.graph.data_dir.resolve()}"
    jobs = "maintenance jobs in-process" if settings.server.jobs else "no jobs (--no-jobs)"
    print(f"hippograph: starting ({where}; {jobs}); {page} will be at {url}", flush=True)
    explorer = (
        f"; explorer: {url.removesuffix('/graphql')}/explore" if settings.server.explorer else ""
    )
    data_dir = settings.graph.data_dir

    def ready() -> None:
        endpoint = cli_remote.endpoint(settings.server.host, settings.server.port)
        cli_remote.publish(data_dir, endpoint)  # commands on data_dir are sent here from now on
        print(f"hippograph: ready. {page}: {url}{explorer}", flush=True)

    try:
        return serve.run(settings, sock, on_ready=ready)
    finally:
        cli_remote.unpublish(data_dir)


class OpenExposure(HippographError):
    """``serve`` on a non-loopback address with no API key configured."""

    code = "CONFIG"


def refuse_open_exposure(settings: Settings) -> None:
    """Refuse to serve every namespace to whoever reaches a non-loopback address."""
    from hippograph.api.access import Access, is_loopback

    if (
        is_loopback(settings.server.host)
        or settings.security.insecure
        or Access.of(settings).keys.configured()
    ):
        return
    raise OpenExposure(
        f"refusing to listen on {settings.server.host} with no API key: anyone reaching it could "
        "use every namespace. Create a key (`hippograph keys create --role admin -n '*'`) or set "
        "HIPPOGRAPH_ADMIN_KEY; or listen on 127.0.0.1 (--host / HIPPOGRAPH_HOST); or accept "
        "the exposure with --insecure (HIPPOGRAPH_INSECURE=1)"
    )


def cmd_mcp(args: argparse.Namespace, settings: Settings) -> int:
    import anyio

    from hippograph.api.mcp import serve_stdio

    anyio.run(
        serve_stdio, settings, args.namespace or settings.server.mcp_namespace, args.principal
    )
    return 0


def cmd_remember(args: argparse.Namespace, settings: Settings) -> int:
    item = NewMemory(
        content=args.content,
        memory_type=args.memory_type,
        scope=args.scope,
        project=args.project,
        session_id=args.session,
        source=Source(session_id=args.session),
        tags=tuple(args.tag),
    )

    def here(rt: Runtime) -> list[RememberResult]:
        from hippograph.graph.write import writepath

        return writepath.remember(rt.store, rt.embedder, args.namespace, [item], policy=rt.policy)

    results = _served(
        args, settings, lambda client: client.remember(item), lambda: with_runtime(settings, here)
    )
    r = results[0]
    verb = {
        "ADD": "remembered",
        "NOOP": f"reinforced (strength {r.memory.strength})",
        "UPDATE": "updated",
        "SUPERSEDE": f"remembered, superseding {r.target}",
        "CONTRADICT": f"remembered, contradicting {r.target} (flagged for resolution)",
    }.get(r.action, r.action.lower())
    print(f"{verb} {r.memory.id} in {args.namespace}: {r.memory.content}")
    if r.action != "ADD" and r.reason:
        print(f"  why: {r.reason}")
    return 0


def cmd_search(args: argparse.Namespace, settings: Settings) -> int:
    def here(rt: Runtime) -> list[ScoredMemory]:
        from hippograph.graph import memories

        return memories.search(
            rt.store, rt.embedder, args.namespace, args.query, args.k, limits=rt.limits,
            project=args.project, session_id=args.session,
        )  # fmt: skip

    found = _served(
        args,
        settings,
        lambda client: client.search(
            args.query, k=args.k, project=args.project, session_id=args.session
        ),
        lambda: with_runtime(settings, here),
    )
    if not found:
        print(f"no memories in {args.namespace} match")
    for s in found:
        print(f"{s.score:.3f}  {s.memory.id}  {s.memory.content}")
    return 0


def cmd_recall(args: argparse.Namespace, settings: Settings) -> int:
    # The request's options, the same here and over HTTP.
    options: dict[str, Any] = {
        "k": args.k, "project": args.project, "session_id": args.session,
        "explain": args.explain, "verify": args.verify, "rejected": args.rejected,
        "include_gap": args.include_gap,
    }  # fmt: skip

    def work(rt: Runtime) -> RecallResult | RemoteRecall:
        from hippograph.graph.recall import retrieval

        request = retrieval.RecallRequest(context=args.context, **options)
        found = retrieval.recall(
            rt.store,
            rt.embedder,
            args.namespace,
            request,
            config=rt.cascade,
            services=rt.services,
        )
        rt.after_recall(args.namespace, args.context, found)
        return found

    def there(client: Client) -> RecallResult | RemoteRecall:
        return client.recall(args.context, **options)

    result = _served(args, settings, there, lambda: with_runtime(settings, work))
    if result.gap:
        print(f"nothing relevant in {args.namespace} (best relevance {result.best_relevance:.2f})")
    for item in result.items:
        flag = " [RULE]" if item.flagged else ""
        flag += " [REJECTED]" if item.rejected else ""
        print(f"{item.score:.3f}{flag}  {item.memory.id}  {item.memory.content}")
        e = item.explanation
        if e is not None:
            path = " -> ".join(f"{s.type}({s.via})" for s in e.path) or "seed"
            print(
                f"        {'/'.join(e.seed_kinds)} via {path}; relevance {e.relevance:.3f} "
                f"activation {e.activation:.3f} speaker {e.speaker:.0f} time {e.time:.0f} "
                f"recency {e.recency:.2f} confidence {e.confidence:.2f}"
            )
    checked = f"; {result.verification}" if args.verify else ""
    print(f"({len(result.items)} memories in {result.total_ms:.0f} ms{checked})")
    return 0


def _served(
    args: argparse.Namespace,
    settings: Settings,
    there: Callable[[Client], T],
    here: Callable[[], T],
) -> T:
    """``there`` on the server ``main`` found (``args.server``), else ``here``; ``here`` too
    when the server turns out not to listen (it was killed and left its file: nothing sent).
    A command called without ``main`` (tests, scripts) runs here."""
    server = getattr(args, "server", None)
    if server is None:
        return here()
    import httpx

    try:
        with cli_remote.client(settings, server, args.namespace) as client:
            return there(client)
    except httpx.ConnectError:
        return here()


def cmd_form(args: argparse.Namespace, settings: Settings) -> int:
    from hippograph.graph.write import formation

    linked = with_runtime(settings, lambda rt: formation.link_adjacent(rt.store, args.namespace))
    print(f"linked {linked} pairs of consecutive turns in {args.namespace}")
    return 0


def cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    from tqdm import tqdm

    from hippograph.graph import transfer, validate
    from hippograph.graph.write import scoped_export

    scoped = args.project is not None or args.session is not None
    if scoped and args.namespace is None:
        raise InvalidInput("namespace", "--project and --session export one namespace")
    scopes = validate.visible(args.project, args.session)

    def work(rt: Runtime) -> dict[str, int]:
        # Readable by its owner only, like the data directory it comes from.
        fd = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)
        with (
            os.fdopen(fd, "w", encoding="utf-8") as out,
            tqdm(unit=" memories", desc="export") as bar,
        ):
            view = scoped_export.lines(rt.store, args.namespace, scopes) if scoped else None
            return transfer.export_to(rt.store, out, args.namespace, progress=bar.update,
                                      lines=view)  # fmt: skip

    counts = with_runtime(settings, work)
    print(f"exported to {args.out}: {json.dumps(counts, sort_keys=True)}")
    return 0


def cmd_import(args: argparse.Namespace, settings: Settings) -> int:
    from tqdm import tqdm

    readable(args.source, "in")
    from hippograph.graph import transfer

    def work(rt: Runtime) -> dict[str, int]:
        with (
            args.source.open(encoding="utf-8") as src,
            tqdm(unit=" memories", desc="import") as bar,
        ):
            return transfer.import_from(rt.store, src, progress=bar.update)

    counts = with_runtime(settings, work)
    print(f"imported from {args.source}: {json.dumps(counts, sort_keys=True)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
