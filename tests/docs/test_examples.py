"""Every example of README.md and docs/*.md, checked as far as it can be without a server (fast)
and run where it talks to one (the Python and GraphQL examples, against the real app on the
embedded engine, in a namespace of the test's own).

Shell lines are parsed by the argument parser of the command they name: the `hippograph`
command's own, a bench script's (stopped right after parsing), or the Makefile's targets; they
must paste as they stand (no ``[optional]`` or ``a|b`` placeholders)."""

from __future__ import annotations

import argparse
import importlib
import json
import re
import shlex
from pathlib import Path
from typing import Any

import graphql
import httpx
import pytest

from hippograph.api import metrics
from hippograph.api.cli import build_parser
from hippograph.api.cli_ingest import jsonl_turns
from hippograph.api.schema import schema
from hippograph.graph import validate
from hippograph.graph.write import messages
from tests.docs.blocks import ALL, ROOT, Block, of

# What each language's blocks get: checked here, or by another test named beside it.
CHECKED = {"sh", "python", "graphql", "json", "jsonl", "promql"}
ELSEWHERE = {
    "cypher": "docs/neo4j-browser.md",  # tests/docs/test_neo4j_browser.py runs each statement
    "": "docs/neo4j-browser.md",  # Neo4j Browser's :param lines, checked by the same test
    "text": "",  # drawings (the code's layout), nothing to run
}
# tests/integrations/test_readme.py runs these pages' Python and reads their turns back.
RUN_ELSEWHERE = {"docs/agent-frameworks.md"}
EXAMPLE_URL = "http://127.0.0.1:8000/graphql"
MAKE_TARGETS = set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.M))


def ids(blocks: list[Block]) -> list[str]:
    return [b.where for b in blocks]


def test_every_block_is_checked() -> None:
    for block in ALL:
        assert block.lang in CHECKED | set(ELSEWHERE), f"{block.where}: a block in {block.lang!r}"
        if ELSEWHERE.get(block.lang):
            assert block.page == ELSEWHERE[block.lang], block.where
    assert {b.lang for b in ALL} >= CHECKED - {"promql"} | {"cypher"}


def command_lines(block: Block) -> list[list[str]]:
    """Each line of a shell block as the shell splits it, comments dropped."""
    return [words for line in block.code.splitlines() if (words := shlex.split(line, True))]


# [optional], a|b, |, <name>, ..., and NAME or ID written for a value to fill in.
PLACEHOLDER = re.compile(r"^\[|\]$|\w\|\w|^\|$|^<.*>$|\.\.\.|^[A-Z][A-Z_]*$")
PARSE = argparse.ArgumentParser.parse_args  # the real one, whatever a test patched


class Parsed(Exception):
    """A bench script's arguments, parsed: raised to stop the script before it runs."""


def bench_arguments(script: str, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """``argv`` parsed by ``bench/<script>``'s own parser: its ``main`` runs until it parses
    its arguments, which stops it."""
    module = importlib.import_module(f"bench.{Path(script).stem}")

    def parse_then_stop(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        raise Parsed(PARSE(self, argv))

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    with pytest.raises(Parsed) as parsed:
        module.main()
    return parsed.value.args[0]


@pytest.mark.parametrize("block", of("sh"), ids=ids(of("sh")))
def test_shell_lines_paste_and_parse(block: Block, monkeypatch: pytest.MonkeyPatch) -> None:
    for words in command_lines(block):
        line = f"{block.where}: {shlex.join(words)}"
        for word in words:
            assert not PLACEHOLDER.search(word), f"a placeholder ({word}) in {line}"
        program, argv = words[0], words[1:]
        if program == "make":
            assert set(argv) <= MAKE_TARGETS, line
        elif program == ".venv/bin/hippograph":
            try:
                build_parser().parse_args(argv)
            except SystemExit:
                pytest.fail(f"the hippograph command refuses {line}")
        elif program == ".venv/bin/python" and argv[0].startswith("bench/"):
            assert (ROOT / argv[0]).is_file(), line
            try:
                bench_arguments(argv[0], argv[1:], monkeypatch)
            except SystemExit:
                pytest.fail(f"{argv[0]} refuses {line}")
        else:
            pytest.fail(f"{line}: a program the docs' test does not know")


@pytest.mark.parametrize("block", of("json"), ids=ids(of("json")))
def test_json_parses_and_its_commands_parse(block: Block) -> None:
    config = json.loads(block.code)
    for name, server in config.get("mcpServers", {}).items():
        if "command" in server:
            assert server["command"].endswith("/.venv/bin/hippograph"), name
            build_parser().parse_args(server["args"])
        else:
            assert server["url"].endswith("/mcp"), name


@pytest.mark.parametrize("block", of("jsonl"), ids=ids(of("jsonl")))
def test_the_ingest_file_example_is_read_as_ingest_reads_it(block: Block, tmp_path: Path) -> None:
    path = tmp_path / "turns.jsonl"
    path.write_text(block.code, encoding="utf-8")
    turns = list(jsonl_turns(path))
    assert len(turns) == len(block.code.strip().splitlines()) > 1
    for i, turn in enumerate(turns):
        checked = messages.check(turn, f"turns[{i}]", validate.Limits(), None)
        assert checked.text == json.loads(block.code.splitlines()[i])["text"]


@pytest.mark.parametrize("block", of("graphql"), ids=ids(of("graphql")))
def test_graphql_fits_the_schema(block: Block) -> None:
    errors = graphql.validate(schema._schema, graphql.parse(block.code))
    assert errors == [], f"{block.where}: {errors}"


def test_promql_names_metrics_the_server_exposes() -> None:
    blocks = of("promql")
    assert blocks
    for block in blocks:
        for name in re.findall(r"\bhippograph_\w+", block.code):
            assert re.sub(r"_(bucket|sum|count)$", "", name) in metrics.HELP, block.where


# The examples that talk to a server: the Python ones run as written, the GraphQL ones page by
# page in order (a page's later query reads what its earlier mutation wrote).
PYTHON = [b for b in of("python") if b.page not in RUN_ELSEWHERE]
GRAPHQL_PAGES = sorted({b.page for b in of("graphql")})


@pytest.mark.parametrize("block", PYTHON, ids=ids(PYTHON))
def test_the_python_examples_run(block: Block, graphql_url: str, namespace: str) -> None:
    assert f'"{EXAMPLE_URL}", namespace="demo"' in block.code, block.where
    code = block.code.replace(EXAMPLE_URL, graphql_url).replace('"demo"', repr(namespace))
    exec(compile(code, block.where, "exec"), {})


@pytest.mark.parametrize("page", GRAPHQL_PAGES)
def test_the_graphql_examples_run(page: str, graphql_url: str, namespace: str) -> None:
    answers = []
    for block in [b for b in of("graphql") if b.page == page]:
        assert 'namespace: "demo"' in block.code, block.where
        query = block.code.replace('namespace: "demo"', f"namespace: {json.dumps(namespace)}")
        answer = httpx.post(graphql_url, json={"query": query}, timeout=120).json()
        assert "errors" not in answer and answer["data"], (block.where, answer)
        answers.append(answer["data"])
    # What the pages say of their examples: what a page remembers, its recall finds; a rule it
    # makes comes back flagged; its conversation's new employer supersedes the old.
    items = [item for a in answers if "recall" in a for item in a["recall"]["items"]]
    remembered = {a["remember"]["memory"]["content"]: a["remember"]["memory"] for a in answers
                  if "remember" in a}  # fmt: skip
    assert not items or {i["memory"]["content"] for i in items} & set(remembered), page
    for item in items:
        if remembered.get(item["memory"]["content"], {}).get("memoryType") == "NEGATIVE":
            assert item["flagged"], page
    for ingest in [a["ingest"] for a in answers if "ingest" in a]:
        assert {"action": "SUPERSEDE", "count": 1} in ingest["actions"], page
