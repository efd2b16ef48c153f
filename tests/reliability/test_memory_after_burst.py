"""Memory comes back down after a burst (#43): a burst of long texts, embedded in batches the
way `rememberBatch` and imports embed them, leaves the process about as large as it was before,
not holding the largest pass's working memory for good. Measured in a process of its own (the
real model on ONNX Runtime), so nothing else the suite loaded moves its resident memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.reliability]

ROOT = Path(__file__).resolve().parents[2]
# Where the process's resident memory stands once the model has run a few short passes, after
# 128 texts at the model's 256-token limit in batches of 64, and the backend that embedded them.
CHILD = """
import json, os, sys
from bench.rss import rss_mb
from hippograph.graph.models.embedder import Embedder

embedder = Embedder().load()
embedder.embed(["warm"])
embedder.embed([f"a short note number {i} about the garden" for i in range(64)])
before = rss_mb(os.getpid())
long = [" ".join(f"word{i}x{j}" for j in range(400)) for i in range(128)]
vectors = embedder.embed(long)
print(json.dumps({"before": before, "after": rss_mb(os.getpid()), "backend": embedder.backend,
                  "shape": list(vectors.shape)}))
"""
# Without the arena handed back the burst left ~1 GB more (docs/research/scale.md).
BOUND_MB = 200


def test_a_burst_of_long_texts_hands_its_working_memory_back() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TOKENIZERS_PARALLELISM": "false"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["backend"] == "onnx"
    assert out["shape"] == [128, 384]
    grown = out["after"] - out["before"]
    assert grown < BOUND_MB, (
        f"the burst left the process {grown:.0f} MiB larger ({out['before']:.0f} -> "
        f"{out['after']:.0f} MiB); the bound is {BOUND_MB} MiB"
    )
