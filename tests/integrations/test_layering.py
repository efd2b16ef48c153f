"""The integrations stand on the client alone: no second copy of the API, no engine. Each
module imports from the project only ``hippograph.client``, the domain records and errors the
client returns and raises, and the integrations' own modules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "hippograph" / "integrations"
ALLOWED = (
    "hippograph.client",
    "hippograph.integrations",
    "hippograph.graph.model",
    "hippograph.graph.errors",
)


def _project_imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return [n for n in names if n == "hippograph" or n.startswith("hippograph.")]


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_an_integration_imports_only_the_client(path: Path) -> None:
    outside = [n for n in _project_imports(path) if not n.startswith(ALLOWED)]
    assert outside == []


def test_the_three_frameworks_have_their_modules() -> None:
    names = {p.stem for p in PACKAGE.glob("*.py")}
    assert {"langgraph", "langgraph_store", "openai_agents", "pydantic_ai"} <= names
