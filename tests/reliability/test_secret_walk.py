"""A secret planted in every string argument is found nowhere afterwards (#43, point 2).

``bench/secret_walk.py`` does the walk on a real `hippograph serve` (keys required, an admin key
over ``*``): every String, ID and JSON argument of every GraphQL query and mutation (nested input
fields and list elements included) and of every MCP tool, each with every secret form, the other
arguments valid (ids made first). The server is then stopped (SIGTERM: the engine closes and
writes its files), and every response, every file of the data directory, the audit trail and the
server log (at INFO) are searched for each raw secret. ``pytest -s`` prints the counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import secret_walk

pytestmark = [pytest.mark.slow, pytest.mark.reliability]


def test_no_planted_secret_is_found_anywhere(tmp_path: Path) -> None:
    report = secret_walk.run(tmp_path)
    print("\n" + report.table())
    walk = report.walk
    assert walk.baseline_errors == []  # every operation answered its valid call
    surfaces = {p.surface for p in walk.outcome}
    assert surfaces == {"graphql", "mcp"}
    operations = {(p.surface, p.operation) for p in walk.outcome}
    assert len([o for o in operations if o[0] == "graphql"]) >= 50
    assert len([o for o in operations if o[0] == "mcp"]) >= 30
    arguments = {(p.surface, p.operation, p.path) for p in walk.outcome}
    assert len(walk.outcome) == len(arguments) * len(secret_walk.FORMS)
    # Some plants were accepted (stored redacted, or read and not kept), some refused.
    codes = set(walk.outcome.values())
    assert "ok" in codes and "SECRET_REJECTED" in codes
    assert report.canary_found  # the search reads the engine's files as they are stored
    assert report.files > 20
    assert report.leaks() == []
