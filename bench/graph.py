"""The graph a benchmark runs on: the embedded engine in a directory of its own (the default),
or the one the environment names (``HIPPOGRAPH_GRAPH_URI`` and the other ``HIPPOGRAPH_*``
variables, as ``serve`` reads them), or the ``--graph-uri`` given.

Every script calls ``add_arguments(parser)`` and builds its settings with ``settings(args, ...)``,
so any of them can be pointed at Neo4j::

    HIPPOGRAPH_GRAPH_URI=bolt://localhost:7687 HIPPOGRAPH_GRAPH_PASSWORD=... python -m bench.latency
    python -m bench.latency --graph-uri bolt://localhost:7687 --graph-password ...
"""

from __future__ import annotations

import argparse
import os

from hippograph.settings import Settings


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--graph-uri``, ``--graph-user``, ``--graph-password`` and ``--graph-database``; each
    left out keeps the environment's value (embedded when no URI is set anywhere)."""
    group = parser.add_argument_group("graph (default: HIPPOGRAPH_GRAPH_* or embedded)")
    group.add_argument("--graph-uri", help="Bolt URI of Neo4j 5.26+ (HIPPOGRAPH_GRAPH_URI)")
    group.add_argument("--graph-user", help="user at the URI (HIPPOGRAPH_GRAPH_USER)")
    group.add_argument("--graph-password", help="password (HIPPOGRAPH_GRAPH_PASSWORD)")
    group.add_argument("--graph-database", help="database (HIPPOGRAPH_GRAPH_DATABASE)")


def settings(args: argparse.Namespace, **overrides: object) -> Settings:
    """Settings from the environment, the graph flags of ``args`` and ``overrides`` (named as
    ``Settings.from_env``'s: ``data_dir=...``, ``engine_heap=...``), in rising precedence."""
    flags = {
        name: getattr(args, name, None)
        for name in ("graph_uri", "graph_user", "graph_password", "graph_database")
    }
    return Settings.from_env(os.environ, **flags, **overrides)


def where(settings: Settings) -> str:
    """The graph as a report line names it."""
    if settings.graph.embedded:
        return f"embedded ArcadeDB in {settings.graph.data_dir}"
    return f"{settings.graph.backend} at {settings.graph.uri}"
