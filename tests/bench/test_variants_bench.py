"""bench/variants.py end to end on the tiny conversation of test_locomo_bench: the first run
loads the store, the second asks at once and prints the same figures, every variant answers
every question in the JSON, the whole pool (--pool) holds at least what the top k holds at every
depth, and an unknown field is refused by name."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench.test_locomo_bench import ROOT, _conversation


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "variants.py"), *args],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )  # fmt: skip


@pytest.mark.slow
def test_variants_load_once_and_repeat_their_figures(tmp_path: Path) -> None:
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(_conversation()), encoding="utf-8")
    store, out = tmp_path / "store", tmp_path / "answers.json"
    common = ["--data", str(data), "--store", str(store), "--vector"]
    variants = ["--variant", "default", "anchors=0,unframe=0"]
    first = _run(*common, *variants, "--json", str(out))
    assert first.returncode == 0, first.stderr[-3000:]
    assert "tiny-1: loaded in" in first.stdout
    second = _run(*common, *variants, "--pool")
    assert second.returncode == 0, second.stderr[-3000:]
    assert "loaded in" not in second.stdout

    def table(stdout: str) -> list[str]:
        return [line for line in stdout.splitlines() if line.startswith(("default", "anchors"))]

    rows = table(first.stdout)
    assert len(rows) == 4  # two variants, in the category table and per conversation
    assert rows == table(second.stdout)
    depths = {
        line.split()[0]: float(line.split()[1])
        for line in second.stdout.split("the whole pool of default")[1].splitlines()[2:6]
    }
    assert list(depths) == ["10", "30", "100", "all"]
    assert depths["10"] <= depths["30"] <= depths["100"] <= depths["all"]
    assert depths["all"] >= float(rows[0].split()[1])  # what is returned was in the pool
    answers = json.loads(out.read_text())
    assert [a["question"] for a in answers] == [
        "When is the Orbit deadline now?",
        "Which endpoint latency is recorded for node 371?",
        "How should answers be written?",
    ]  # the abstention question has no evidence and is not asked
    for a in answers:
        for name in ("default", "anchors=0,unframe=0", "vector"):
            assert 0 < len(a[name]) <= 10
    assert "D2:1" in answers[0]["default"][:3]
    refused = _run(*common, "--variant", "anchor=1")
    assert refused.returncode != 0
    assert "'anchor' is not a CascadeConfig field" in refused.stderr
