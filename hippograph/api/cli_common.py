"""What every ``hippograph`` subcommand shares: the data-dir flag and opening the graph."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from hippograph.graph.errors import InvalidInput
from hippograph.settings import Settings

if TYPE_CHECKING:
    from hippograph.graph.runtime import Runtime

T = TypeVar("T")


def data_dir_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, default=None, help="embedded engine data dir")


def readable(path: Path, field: str) -> Path:
    """``path`` if it is a file this process can read, else ``BAD_INPUT`` naming ``field``: checked
    before the graph opens, so a mistyped name costs no engine start and writes nothing."""
    try:
        with path.open("rb"):
            return path
    except OSError as exc:
        raise InvalidInput(field, f"cannot read {path}: {exc.strerror or exc}") from None


def with_runtime(settings: Settings, work: Callable[[Runtime], T]) -> T:
    """Open the graph (attaching to a running server's engine), run ``work``, close."""
    from hippograph.graph.runtime import Runtime  # the engine and the model: only when used

    rt = Runtime.open(settings, attach=True)
    try:
        return work(rt)
    finally:
        rt.close()
