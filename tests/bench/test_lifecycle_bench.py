"""bench/lifecycle.py end to end on the tiny conversation of the LoCoMo bench test: both stores
are asked, the aged one after its jobs ran over the sessions and 90 days, and the JSON has the
documented keys. Benchmarks break silently when nothing runs them; this runs one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench.test_locomo_bench import _conversation

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_lifecycle_bench_runs_on_a_tiny_conversation(tmp_path: Path) -> None:
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(_conversation()), encoding="utf-8")
    out = tmp_path / "out.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "lifecycle.py"), "--data", str(data),
         "--json", str(out), "--data-dir", str(tmp_path / "store")],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert "tiny-1: fresh store asked" in run.stdout
    assert "tiny-1: aged 2 sessions + 90 days, job runs" in run.stdout
    result = json.loads(out.read_text())
    assert result["questions"] == 3
    assert set(result) >= {"recall@10", "recall@5", "fresh", "aged", "counts", "categories"}
    assert result["recall@10"] == result["aged"]["recall@10"]
    assert set(result["fresh"]["recall@10"]) == {"all", "3", "4", "9"}
    # Nothing in six plain turns is merged or archived by 90 days of upkeep, and
    # the aged store finds what the fresh one does.
    counts = result["counts"]
    assert counts["active"] >= 6
    assert counts["merged"] == counts["archived"] == 0
    assert counts["unreachable"] == 0
    assert result["aged"]["recall@10"]["all"] >= result["fresh"]["recall@10"]["all"] - 1
