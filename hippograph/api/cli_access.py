"""``hippograph keys create|list|rotate|revoke|token``, and the key check of every other command.

Commands attach to a running server's engine over Bolt with the password in the data
directory, so whoever can read that directory (mode 0700) can reach every namespace: the file
modes are the boundary on the machine. Within it, once keys exist, a command presents one in
``HIPPOGRAPH_API_KEY`` and is held to the key's namespaces and role like an HTTP caller
(``check``); ``keys`` itself is the data directory owner's and needs none.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from hippograph.api.cli_common import data_dir_arg
from hippograph.api.keys import ROLES, ApiKey, KeyStore, Role, new_token
from hippograph.graph.errors import Unauthenticated
from hippograph.graph.store.engine import read_info
from hippograph.settings import Settings

if TYPE_CHECKING:
    from hippograph.api.access import Principal

# Commands needing no key: the server itself, and the keys of its data directory.
EXEMPT = frozenset({"cmd_serve", "cmd_keys"})


def register(sub: Any) -> None:
    keys = sub.add_parser("keys", help="API keys: create, list, rotate, revoke")
    keys_sub = keys.add_subparsers(required=True, metavar="ACTION", dest="action")
    create = keys_sub.add_parser("create", help="a new key; its token is printed once")
    create.add_argument("--name", default="", help="what the key is for")
    create.add_argument("--role", choices=ROLES, required=True)
    create.add_argument(
        "--namespace", "-n", action="append", required=True, dest="namespaces",
        help="a namespace, a prefix ending in * (team-a:*), or * (repeat for more)",
    )  # fmt: skip
    create.add_argument(
        "--yes", action="store_true",
        help="create the first key while a server runs in open mode (its callers without a "
        "key are refused from then on)",
    )  # fmt: skip
    keys_sub.add_parser("list", help="every key, revoked ones included")
    rotate = keys_sub.add_parser("rotate", help="a new secret for a key; the old one stops")
    rotate.add_argument("id")
    revoke = keys_sub.add_parser("revoke", help="revoke a key for good")
    revoke.add_argument("id")
    keys_sub.add_parser("token", help="print a fresh token for HIPPOGRAPH_ADMIN_KEY")
    for parser in keys_sub.choices.values():
        data_dir_arg(parser)
    keys.set_defaults(command=cmd_keys)


def cmd_keys(args: argparse.Namespace, settings: Settings) -> int:
    from hippograph.api.access import Access  # GraphQL's: imported by the commands that check

    access = Access.of(settings)
    store: KeyStore = access.keys
    if args.action == "token":
        print(new_token())
        print("set it as HIPPOGRAPH_ADMIN_KEY; it is stored nowhere", flush=True)
        return 0
    if args.action == "list":
        found = store.list()
        if not found:
            print(f"no keys in {store.path} (open mode on loopback, unless HIPPOGRAPH_OPEN=0)")
        for key in found:
            print(describe(key))
        return 0
    if args.action == "create":
        first = not store.configured()
        holder = read_info(settings.graph.data_dir) if first else None
        if holder is not None and not args.yes:
            print(
                f"a server (pid {holder.pid}) holds {settings.graph.data_dir} and no key is "
                "active: if it is in open mode, once this key exists it refuses every request "
                "that sends no key (GraphiQL, MCP clients, scripts must then send "
                "'Authorization: Bearer <token>'), and stays so after a restart. Run again with "
                "--yes to create the key.",
                file=sys.stderr,
            )
            return 2
        issued = store.create(args.name, args.role, args.namespaces)
        verb = "created"
        if first:
            print("the only active key: callers without a key are refused from now on")
    elif args.action == "rotate":
        issued = store.rotate(args.id)
        verb = "rotated"
    else:
        key = store.revoke(args.id)
        access.audit.record(key_id="local", operation="revokeKey", namespace=None, outcome="ok")
        print(f"revoked {describe(key)}")
        if not store.configured():
            print(
                "that was the last active key: servers and commands on this data directory "
                "refuse callers without a key (they do not return to open mode); create a key "
                "with `hippograph keys create`, or restart the server with HIPPOGRAPH_OPEN=1"
            )
        return 0
    operation = "createKey" if verb == "created" else "rotateKey"
    access.audit.record(key_id="local", operation=operation, namespace=None, outcome="ok")
    print(f"{verb} {describe(issued.key)}")
    print(f"token (shown once, only its hash is kept): {issued.token}")
    return 0


def describe(key: ApiKey) -> str:
    state = f"revoked {key.revoked_at}" if key.revoked_at else "active"
    name = f" {key.name!r}" if key.name else ""
    return f"{key.id}{name} {key.role} on {', '.join(key.namespaces)} ({state})"


def required(args: argparse.Namespace, settings: Settings) -> tuple[Role, str | None]:
    """The role a command needs, over which namespace (None: every one)."""
    name = getattr(args.command, "__name__", "")
    namespace = getattr(args, "namespace", None)
    if name == "cmd_mcp":
        return "write", namespace or settings.server.mcp_namespace
    if name in ("cmd_search", "cmd_recall", "cmd_context"):
        return "read", namespace
    if name in ("cmd_core", "cmd_profile"):
        return ("admin" if args.refresh else "read"), namespace
    if name in ("cmd_remember", "cmd_form", "cmd_ingest", "cmd_erase"):
        return "write", namespace
    if name == "cmd_consolidate":
        return ("write" if namespace else "admin"), namespace
    # rebuild, export, import, worker, jobs: admin, over the namespace given or every one.
    return "admin", namespace


def check(args: argparse.Namespace, settings: Settings) -> Principal:
    """The command's principal: ``local`` in open mode (``Access.of``: by default while the
    store never had a key), else the key in ``HIPPOGRAPH_API_KEY``, authorized for what the
    command does."""
    from hippograph.api.access import Access, Principal, authenticate, authorize

    local = Principal(key_id="local", role="admin", namespaces=("*",))
    name = getattr(args.command, "__name__", "")
    if name in EXEMPT:
        return local
    access = Access.of(settings, serving=False)
    if access.open:
        return local
    if not access.keys.configured():
        raise Unauthenticated(
            f"no key is active in {access.keys.path}: create one with `hippograph keys create "
            "--role admin -n '*'` and set HIPPOGRAPH_API_KEY to it, or run with HIPPOGRAPH_OPEN=1"
        )
    if not settings.security.api_key:
        raise Unauthenticated(
            f"keys are configured in {access.keys.path}: set HIPPOGRAPH_API_KEY to a key "
            "allowed to do this"
        )
    principal = authenticate(access, settings.security.api_key)
    role, namespace = required(args, settings)
    authorize(principal, namespace, role, name.removeprefix("cmd_"))
    return principal
