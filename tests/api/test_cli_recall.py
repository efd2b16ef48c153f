"""``hippograph recall`` with relevance verification and gaps, against a fresh embedded engine
and a local server speaking the OpenAI chat API."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from hippograph.api import cli
from hippograph.graph.model import NewMemory
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath
from hippograph.settings import Settings
from tests.graph.llm_server import Endpoint, serve


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    yield from serve()


def recall_threads() -> set[threading.Thread]:
    """The live threads of recall's pools (`graph.recall.caches`), any owner's."""
    prefixes = ("hippograph-recall", "hippograph-termstats", "hippograph-vocabulary")
    return {t for t in threading.enumerate() if t.name.startswith(prefixes)}


def run(argv: list[str], settings: Settings) -> int:
    args = cli.build_parser().parse_args(argv)
    return int(args.command(args, settings))


@pytest.mark.slow
def test_recall_verifies_flags_and_answers_gaps(
    tmp_path: Path, endpoint: Endpoint, capsys: pytest.CaptureFixture[str]
) -> None:
    rt = Runtime.open(Settings.from_env({}, data_dir=tmp_path / "data"), attach=False)
    try:
        tea, shop = (
            r.memory.id
            for r in writepath.remember(
                rt.store,
                rt.embedder,
                "cli",
                [
                    NewMemory(content="Ada drinks green tea every morning."),
                    NewMemory(content="Ada's favourite tea shop is in Lisbon."),
                ],
                policy=rt.policy,
            )
        )
    finally:
        rt.close()
    env = {"HIPPOGRAPH_LLM_BASE_URL": endpoint.url, "HIPPOGRAPH_LLM_MODEL": "m"}
    settings = Settings.from_env(env, data_dir=tmp_path / "data")

    endpoint.content = json.dumps({"relevant": [tea]})
    argv = ["recall", "what tea does Ada drink", "-n", "cli", "--include-gap", "--verify"]
    before = recall_threads()
    assert run([*argv, "--rejected", "flag"], settings) == 0
    assert recall_threads() <= before  # the command's runtime shut its recall pools down
    out = capsys.readouterr().out
    line = {m: next(x for x in out.splitlines() if m in x) for m in (tea, shop)}
    assert "[REJECTED]" not in line[tea]
    assert "[REJECTED]" in line[shop]
    assert "; verified)" in out

    assert run(argv, settings) == 0  # drop is the default
    out = capsys.readouterr().out
    assert tea in out and shop not in out

    endpoint.content = "not json at all"
    assert run(argv, settings) == 0
    out = capsys.readouterr().out
    assert tea in out and shop in out and "unverified" in out

    assert run(["recall", "quarterly tax filing for the boat", "-n", "cli"], settings) == 0
    out = capsys.readouterr().out
    assert "nothing relevant in cli" in out and "(0 memories" in out
