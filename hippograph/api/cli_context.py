"""``hippograph context``: the token-budgeted context bundle for a turn, printed ready to paste."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from hippograph.api.cli_common import data_dir_arg, with_runtime
from hippograph.graph.recall.recall_config import BUNDLE_CANDIDATES, BUNDLE_FORMATS
from hippograph.settings import Settings


def register(subparsers: Any) -> None:
    ctx = subparsers.add_parser(
        "context", help="the memories relevant to a context, as prompt text within a token budget"
    )
    ctx.add_argument("context")
    ctx.add_argument("--namespace", "-n", default="default")
    ctx.add_argument("--budget", type=int, default=1000, help="tokens at most (default 1000)")
    ctx.add_argument("--format", choices=BUNDLE_FORMATS, default="markdown")
    ctx.add_argument("--session", help="a session id: what it was shown already is not repeated")
    ctx.add_argument("--project")
    ctx.add_argument("-k", type=int, default=BUNDLE_CANDIDATES, help="candidates")
    data_dir_arg(ctx)
    ctx.set_defaults(command=cmd_context)


def cmd_context(args: argparse.Namespace, settings: Settings) -> int:
    from hippograph.graph.recall import bundle

    request = bundle.ContextRequest(
        context=args.context,
        budget=args.budget,
        format=args.format,
        session_id=args.session,
        project=args.project,
        k=args.k,
    )

    result = with_runtime(settings, lambda rt: rt.context_bundle(args.namespace, request))
    print(result.text)
    refs = ", ".join(f"[{i.ref}] {i.id}" for i in result.items)
    print(
        f"\n{result.tokens} of {result.budget} tokens, {len(result.items)} items, "
        f"{result.dropped} left out{' (nothing relevant found)' if result.gap else ''}"
        + (f"; {refs}" if refs else ""),
        file=sys.stderr,
    )
    return 0
