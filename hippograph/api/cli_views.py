"""``hippograph core`` and ``hippograph profile``: a namespace's core block and profile, printed
(``--refresh`` computes them now, as their jobs would)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from hippograph.api.cli_common import data_dir_arg, with_runtime
from hippograph.settings import Settings

if TYPE_CHECKING:
    from hippograph.graph.runtime import Runtime


def register(subparsers: Any) -> None:
    block = subparsers.add_parser("core", help="the memories a namespace keeps always in view")
    block.add_argument("--namespace", "-n", default="default")
    block.add_argument("--refresh", action="store_true", help="choose the block again now")
    data_dir_arg(block)
    block.set_defaults(command=cmd_core)
    prof = subparsers.add_parser("profile", help="who the user is and what they want")
    prof.add_argument("--namespace", "-n", default="default")
    prof.add_argument("--refresh", action="store_true", help="materialize it again now")
    data_dir_arg(prof)
    prof.set_defaults(command=cmd_profile)


def cmd_core(args: argparse.Namespace, settings: Settings) -> int:
    from hippograph.graph.upkeep import core
    from hippograph.graph.write.tools import chat_client
    from hippograph.jobs.config import JobsConfig

    def work(rt: Runtime) -> tuple[core.CoreChange | None, core.CoreBlock]:
        change = None
        if args.refresh:
            client = chat_client(settings)
            try:
                config = JobsConfig.from_settings(settings).core
                change = core.recompute(rt.store, args.namespace, config, client=client)
            finally:
                if client is not None:
                    client.close()
        return change, core.get(rt.store, args.namespace)

    change, block = with_runtime(settings, work)
    if args.refresh:
        print(
            f"core block of {args.namespace}: unchanged"
            if change is None
            else f"core block of {args.namespace}: version {change.version} by {change.decider}, "
            f"{len(change.added)} in, {len(change.removed)} out"
        )
    print(f"{len(block.memories)} memories (version {block.version}, by {block.decider or '-'})")
    for m in block.memories:
        print(f"  {m.id}  [{m.memory_type}] {m.content}")
    return 0


def cmd_profile(args: argparse.Namespace, settings: Settings) -> int:
    from hippograph.graph.upkeep import profile

    def work(rt: Runtime) -> profile.Profile:
        if args.refresh:
            return profile.refresh(rt.store, args.namespace)
        return profile.get(rt.store, args.namespace)

    found = with_runtime(settings, work)
    print(f"profile of {args.namespace} (version {found.version}): {len(found.entries)} entries")
    for e in found.entries:
        label = f"{e.kind}/{e.attribute}" if e.attribute else e.kind
        print(f"  [{label}] {e.statement}  ({', '.join(e.sources)})")
    print(f"{len(found.skills)} skill proposals")
    for s in found.skills:
        print(f"  {s.name} (used {s.uses}x): " + " -> ".join(s.steps))
    return 0
