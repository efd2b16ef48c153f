"""The API guide names everything there is: every GraphQL root field, every MCP tool (and their
number), and every ``hippograph`` command in a block to paste."""

from __future__ import annotations

import argparse
import re
import shlex

from hippograph.api.access import FIELD_ROLES
from hippograph.api.cli import build_parser
from hippograph.api.mcp_tools import TOOLS
from hippograph.api.schema import schema
from tests.docs.blocks import ROOT, of

API = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")


def section(heading: str) -> str:
    return API.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def test_the_operations_table_names_every_root_field() -> None:
    table = section("GraphQL").split("### Errors")[0]
    named = set(re.findall(r"`(\w+)`", table))
    fields = set(schema._schema.query_type.fields) | set(schema._schema.mutation_type.fields)
    assert fields - named == set()


def test_the_mcp_section_names_every_tool_and_their_number() -> None:
    text = section("MCP")
    assert f"MCP: {len(TOOLS)} tools" in text
    assert {t.name for t in TOOLS} - set(re.findall(r"`(\w+)`", text)) == set()


def test_the_roles_name_every_field_a_key_may_reach() -> None:
    operations = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    roles = operations.split("- **Roles and namespaces.**", 1)[1].split("\n- ", 1)[0]
    assert set(FIELD_ROLES) - set(re.findall(r"\w+", roles)) == set()


def subcommands(
    parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()
) -> set[tuple[str, ...]]:
    """Every command path (``("keys", "create")``) the parser takes."""
    found = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.add((*prefix, name))
                found |= subcommands(sub, (*prefix, name))
    return found


def test_every_command_has_an_example_to_paste() -> None:
    shown = set()
    for block in of("sh"):
        for line in block.code.splitlines():
            words = shlex.split(line, True)
            if words[:1] == [".venv/bin/hippograph"]:
                shown |= {tuple(words[1:n]) for n in (2, 3)}
    assert subcommands(build_parser()) - shown == set()
