"""``hippograph core`` and ``hippograph profile`` against a fresh embedded engine."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from hippograph.api import cli_views
from hippograph.graph.model import NewMemory
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath
from hippograph.settings import Settings


def run(argv: list[str], settings: Settings) -> int:
    parser = argparse.ArgumentParser(prog="hippograph")
    cli_views.register(parser.add_subparsers(required=True))
    args = parser.parse_args(argv)
    return int(args.command(args, settings))


@pytest.mark.slow
def test_core_and_profile_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings.from_env({}, data_dir=tmp_path / "data")
    rt = Runtime.open(settings, attach=False)
    try:
        writepath.remember(
            rt.store,
            rt.embedder,
            "cli",
            [
                NewMemory(content="Never deploy on Fridays.", memory_type="negative"),
                NewMemory(content="Ben works at Initech."),
            ],
            policy=rt.policy,
        )
    finally:
        rt.close()
    assert run(["core", "-n", "cli"], settings) == 0
    assert "0 memories (version 0, by -)" in capsys.readouterr().out
    assert run(["core", "-n", "cli", "--refresh"], settings) == 0
    out = capsys.readouterr().out
    assert "core block of cli: version 1 by rule, 1 in, 0 out" in out
    assert "[negative] Never deploy on Fridays." in out
    assert run(["profile", "-n", "cli", "--refresh"], settings) == 0
    out = capsys.readouterr().out
    assert "profile of cli (version 1): 2 entries" in out
    assert "[identity/workplace] Ben works at Initech." in out
    assert "[constraint] Never deploy on Fridays." in out
