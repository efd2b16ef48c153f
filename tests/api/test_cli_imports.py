"""A command sent to a running server starts in a fraction of a second: the ``hippograph``
CLI imports nothing heavy (the engine, the embedding model, GraphQL, the data-science stack)
before it knows which command runs (``hippograph.api.cli``'s docstring)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hippograph.api import cli_remote
from hippograph.settings import Settings

# Top-level packages a command sent over HTTP must not import (each costs a second or more).
HEAVY = frozenset({
    "torch", "transformers", "sentence_transformers", "onnxruntime", "tokenizers", "numpy",
    "scipy", "pandas", "graphdatascience", "neo4j", "jpype", "arcadedb_embedded", "strawberry",
    "graphql", "starlette", "uvicorn", "mcp", "opentelemetry",
})  # fmt: skip


def imported(argv: list[str]) -> set[str]:
    """Top-level packages ``python -X importtime -m hippograph.api.cli *argv`` imports."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "hippograph.api.cli", *argv],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "HIPPOGRAPH_DATA_DIR": "/nonexistent/hippograph-cli-imports"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("import time:")]
    assert lines, "python printed no import times"
    return {ln.rsplit("|", 1)[1].strip().split(".")[0] for ln in lines[1:]}


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["search", "--help"], ["recall", "--help"], ["remember", "--help"],
     ["context", "--help"], ["jobs", "run", "--help"], ["keys", "create", "--help"]],
)  # fmt: skip
def test_help_imports_nothing_heavy(argv: list[str]) -> None:
    loaded = imported(argv)
    assert "hippograph" in loaded
    assert loaded & HEAVY == set()


def test_a_published_server_is_where_commands_go(tmp_path: Path) -> None:
    settings = Settings.from_env(data_dir=tmp_path)
    assert cli_remote.server_for("cmd_recall", settings) is None  # nothing published
    cli_remote.publish(tmp_path, cli_remote.endpoint("0.0.0.0", 8123))
    assert (tmp_path / cli_remote.SERVER_FILE).stat().st_mode & 0o077 == 0
    assert cli_remote.server_for("cmd_recall", settings) == "http://127.0.0.1:8123/graphql"
    assert cli_remote.server_for("cmd_search", settings) == "http://127.0.0.1:8123/graphql"
    assert cli_remote.server_for("cmd_export", settings) is None  # opens the graph itself
    cli_remote.unpublish(tmp_path)
    assert cli_remote.server_for("cmd_recall", settings) is None


def test_a_dead_servers_file_is_ignored(tmp_path: Path) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    (tmp_path / cli_remote.SERVER_FILE).write_text(
        f'{{"pid": {int(gone.stdout)}, "url": "http://127.0.0.1:1/graphql"}}', encoding="utf-8"
    )
    assert cli_remote.published(tmp_path) is None
    (tmp_path / cli_remote.SERVER_FILE).write_text("not json", encoding="utf-8")
    assert cli_remote.published(tmp_path) is None


def test_endpoints_of_listen_addresses() -> None:
    assert cli_remote.endpoint("127.0.0.1", 8000) == "http://127.0.0.1:8000/graphql"
    assert cli_remote.endpoint("::", 8000) == "http://[::1]:8000/graphql"
    assert cli_remote.endpoint("::1", 9) == "http://[::1]:9/graphql"
    assert cli_remote.endpoint("example.org", 80) == "http://example.org:80/graphql"


def test_the_app_with_traces_off_imports_no_opentelemetry_sdk() -> None:
    """Traces off (the default): api/tracing.py and the OpenTelemetry SDK stay unimported (the
    API package alone may be there: the MCP library imports it)."""
    probe = (
        "import sys; from hippograph.api.app import create_app; "
        "from hippograph.settings import Settings; create_app(Settings.from_env({})); "
        "print(sorted(m for m in sys.modules if m.startswith("
        "('opentelemetry.sdk', 'opentelemetry.exporter', 'hippograph.api.tracing'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout
