"""bench/locomo.py end to end on a tiny conversation in the LoCoMo layout (written here, not
copied from any data set): a turn longer than a memory may be is stored in pieces, every
category the file names is reported with its name, and the JSON has the documented keys.
Benchmarks break silently when nothing runs them; this runs one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

LONG_PLAN = "\n\n".join(
    f"Step {i}: configure the staging cluster node {i} with the shared Terraform module, "
    f"then run the smoke suite and record the latency of endpoint /v{i}/orders."
    for i in range(400)
)  # ~60 KB: over the 32 KiB memory limit


def _conversation() -> list[dict[str, object]]:
    turns_1 = [
        {
            "speaker": "user",
            "dia_id": "D1:1",
            "text": "I'm planning the staging rollout for Orbit.",
        },
        {"speaker": "assistant", "dia_id": "D1:2", "text": LONG_PLAN},
        {"speaker": "user", "dia_id": "D1:3", "text": "Our deadline is the 14th of March."},
    ]
    turns_2 = [
        {"speaker": "user", "dia_id": "D2:1", "text": "The deadline moved to the 28th of March."},
        {"speaker": "assistant", "dia_id": "D2:2", "text": "Noted, the 28th it is."},
        {"speaker": "user", "dia_id": "D2:3", "text": "I prefer short answers with code first."},
    ]
    qa = [
        {"question": "When is the Orbit deadline now?", "evidence": ["D2:1"], "category": 3,
         "category_name": "knowledge_update"},
        {"question": "Which endpoint latency is recorded for node 371?", "evidence": ["D1:2"],
         "category": 4, "category_name": "information_extraction"},
        {"question": "How should answers be written?", "evidence": ["D2:3"], "category": 9,
         "category_name": "preference_following"},
        {"question": "What is the user's favourite film?", "evidence": [], "category": 5,
         "category_name": "abstention"},
    ]  # fmt: skip
    return [
        {
            "sample_id": "tiny-1",
            "conversation": {
                "speaker_a": "user",
                "speaker_b": "assistant",
                "session_1_date_time": "12:00 pm on 1 March, 2024",
                "session_1": turns_1,
                "session_2_date_time": "12:00 pm on 8 March, 2024",
                "session_2": turns_2,
            },
            "qa": qa,
        }
    ]


@pytest.mark.slow
def test_the_locomo_bench_runs_on_a_tiny_conversation(tmp_path: Path) -> None:
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(_conversation()), encoding="utf-8")
    out = tmp_path / "out.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "locomo.py"), "--data", str(data),
         "--json", str(out), "--data-dir", str(tmp_path / "store"), "--budget", "120"],
        capture_output=True, text=True, timeout=600, cwd=ROOT,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    assert "tiny-1: 6 turns stored" in run.stdout
    assert "categories: 3 knowledge_update, 4 information_extraction, 9 preference_following" in (
        run.stdout
    )
    result = json.loads(out.read_text())
    assert result["questions"] == 3
    assert result["categories"] == {
        "3": "knowledge_update",
        "4": "information_extraction",
        "9": "preference_following",
    }
    assert set(result["recall@10"]) == {"all", "3", "4", "9"}
    # The long turn was stored in pieces and its detail is found (by the full-text side).
    assert result["recall@10"]["4"] == 100.0
    assert set(result["context"]["120"]) >= {"recall", "tokens_mean", "tokens_p95"}
    assert result["context"]["120"]["tokens_p95"] <= 120
