"""``hippograph ingest | consolidate | rebuild`` against a fresh embedded engine."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from hippograph.api import cli, cli_ingest
from hippograph.graph.errors import TurnConflict
from hippograph.settings import Settings


def run(argv: list[str], settings: Settings) -> int:
    parser = argparse.ArgumentParser(prog="hippograph")
    cli_ingest.register(parser.add_subparsers(required=True))
    args = parser.parse_args(argv)
    return int(args.command(args, settings))


@pytest.mark.slow
def test_ingest_consolidate_rebuild(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings.from_env({}, data_dir=tmp_path / "data")
    source = tmp_path / "turns.jsonl"
    lines = [
        {"sessionId": "s1", "turnIndex": 0, "speaker": "Ada", "text": "I prefer tea over coffee."},
        {"sessionId": "s1", "turnIndex": 1, "speaker": "Ada", "text": "I moved to Lisbon."},
    ]
    source.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    assert run(["ingest", str(source), "-n", "cli"], settings) == 0
    out = capsys.readouterr().out
    assert "ingested 2 turns into cli" in out and '"stored": 2' in out
    assert run(["consolidate", "-n", "cli"], settings) == 0
    assert "consolidation not due" in capsys.readouterr().out
    assert run(["consolidate", "-n", "cli", "--dry-run", "--force"], settings) == 0
    assert "plan (dry run, nothing written)" in capsys.readouterr().out
    assert run(["rebuild", "-n", "cli"], settings) == 0
    out = capsys.readouterr().out
    assert "rebuilt cli" in out and '"active": 2' in out


def test_ingest_refuses_a_file_with_conflicting_turns_before_writing(tmp_path: Path) -> None:
    settings = Settings.from_env({}, data_dir=tmp_path / "data")
    source = tmp_path / "turns.jsonl"
    lines = [
        {"sessionId": "s1", "turnIndex": 0, "speaker": "Ada", "text": "I prefer tea."},
        {"sessionId": "s1", "turnIndex": 0, "speaker": "Ada", "text": "I prefer tea."},
        {"sessionId": "s1", "turnIndex": 0, "speaker": "Ada", "text": "I prefer coffee."},
    ]
    source.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    with pytest.raises(TurnConflict) as raised:
        run(["ingest", str(source), "-n", "cli"], settings)
    assert (raised.value.session, raised.value.turn) == ("s1", 0)
    # Refused before the engine opened: nothing was written anywhere.
    data = tmp_path / "data"
    assert not data.exists() or not any(data.iterdir())


@pytest.mark.parametrize(
    ("argv", "field"),
    [(["ingest", "FILE", "-n", "cli"], "source"), (["import", "-i", "FILE"], "in")],
)
def test_a_file_that_cannot_be_read_is_bad_input_naming_it(
    argv: list[str], field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing, data = tmp_path / "nope.jsonl", tmp_path / "data"
    argv = [str(missing) if a == "FILE" else a for a in argv]
    assert cli.main([*argv, "--data-dir", str(data)]) == 2
    assert f"error [BAD_INPUT]: {field}: cannot read {missing}" in capsys.readouterr().err
    # Refused before the engine opened: the data directory holds at most the audit trail's line.
    assert not data.exists() or {p.name for p in data.iterdir()} <= {"audit.jsonl"}
