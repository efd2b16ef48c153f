"""The embedding runtimes: ONNX Runtime (default) against PyTorch on the real model."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch

from hippograph.graph.models import onnx_encoder
from hippograph.graph.models.embedder import Embedder

TEXTS = [
    "Ada prefers tea over coffee.",
    "",
    "   ",
    "never deploy on Fridays",
    "Caroline: I went to the LGBTQ support group yesterday [image: a rainbow flag]",
    "src/hippograph/graph/recall/retrieval.py fails on Python 3.11 with KeyError 'seed'",
    " ".join(f"word{i}" for i in range(600)),  # far past the 256-token limit: truncated alike
    "Ünïcödé 東京 🙂 — emoji and CJK",
]


@pytest.fixture(scope="module")
def torch_embedder() -> Embedder:
    return Embedder(backend="torch").load()


def test_the_default_runtime_is_onnx_and_agrees_with_pytorch(
    embedder: Embedder, torch_embedder: Embedder
) -> None:
    assert embedder.backend == "onnx"
    assert torch_embedder.backend == "torch"
    assert embedder.dimensions == torch_embedder.dimensions == 384
    ours, theirs = embedder.embed(TEXTS), torch_embedder.embed(TEXTS)
    assert ours.shape == theirs.shape == (len(TEXTS), 384)
    assert ours.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    cosines = (ours * theirs).sum(axis=1)
    assert cosines.min() >= 0.9999, cosines


def test_batches_sorted_by_length_come_back_in_input_order(embedder: Embedder) -> None:
    one_by_one = np.stack([embedder.embed([t])[0] for t in TEXTS])
    small_batches = Embedder(batch_size=3).load().embed(TEXTS)
    np.testing.assert_allclose(small_batches, one_by_one, atol=1e-5)
    assert embedder.embed([]).shape == (0, 384)


def test_the_export_is_made_once_per_cache_and_reused(tmp_path: Path) -> None:
    first = Embedder(cache_dir=tmp_path).load()
    exported = sorted(tmp_path.iterdir())
    assert [p.suffix for p in exported] == [".onnx"], "one finished file, no partial export left"
    stamp = exported[0].stat().st_mtime_ns
    second = Embedder(cache_dir=tmp_path).load()
    assert second.backend == "onnx"
    assert exported[0].stat().st_mtime_ns == stamp, "a cached export is not redone"
    np.testing.assert_allclose(first.embed(TEXTS), second.embed(TEXTS), atol=1e-6)


def test_a_first_export_logs_each_step(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A first start says what it is doing while it exports (``serve`` shows INFO)."""
    with caplog.at_level(logging.INFO, logger="hippograph.graph.models.onnx_encoder"):
        Embedder(cache_dir=tmp_path).load()
    said = [r.getMessage() for r in caplog.records if r.name.endswith("onnx_encoder")]
    steps = ["once for this model", "loading the model", "tracing", "exported", "checking"]
    found = [next(i for i, m in enumerate(said) if step in m) for step in steps]
    assert found == sorted(found), said


def test_a_disagreeing_reference_fails_the_parity_check(
    embedder: Embedder, torch_embedder: Embedder
) -> None:
    model = onnx_encoder.spec(embedder.model_path)
    assert model is not None
    path = next(embedder.cache_dir.expanduser().glob(f"{onnx_encoder.cache_key(model)}.onnx"))
    encoder = onnx_encoder.OnnxEncoder(path, model, threads=1)
    assert onnx_encoder.check_parity(encoder, torch_embedder._model) >= 0.9999
    reference = onnx_encoder._torch_model(model)
    weights = reference[0].auto_model.embeddings.word_embeddings.weight
    noise = np.random.default_rng(7).standard_normal(tuple(weights.shape)).astype(np.float32)
    weights.data.add_(torch.from_numpy(noise) * 0.05)
    with pytest.raises(onnx_encoder.OnnxUnavailable, match="disagrees"):
        onnx_encoder.check_parity(encoder, reference)


def test_a_layout_onnx_does_not_serve_falls_back_to_pytorch(
    embedder: Embedder, tmp_path: Path
) -> None:
    model_dir = tmp_path / "model"
    shutil.copytree(embedder.model_path, model_dir)
    modules = json.loads((model_dir / "modules.json").read_text())
    modules.insert(
        2, {"idx": 9, "name": "9", "path": "2_Dense", "type": "sentence_transformers.models.Dense"}
    )
    (model_dir / "modules.json").write_text(json.dumps(modules))
    assert onnx_encoder.spec(model_dir) is None
    assert onnx_encoder.spec(embedder.model_path) is not None
    pooling = json.loads((model_dir / "1_Pooling" / "config.json").read_text())
    assert pooling["pooling_mode_mean_tokens"] is True
    (model_dir / "modules.json").write_text(json.dumps(modules[:2]))
    pooling["pooling_mode_max_tokens"] = True
    (model_dir / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    assert onnx_encoder.spec(model_dir) is None, "two pooling modes at once are not served"
    fallback = Embedder(str(model_dir), cache_dir=tmp_path / "cache").load()
    assert fallback.backend == "torch"
    assert not (tmp_path / "cache").exists(), "nothing exported for a layout not served"


def test_a_damaged_cached_export_is_replaced(embedder: Embedder, tmp_path: Path) -> None:
    model = onnx_encoder.spec(embedder.model_path)
    assert model is not None
    damaged = tmp_path / f"{onnx_encoder.cache_key(model)}.onnx"
    damaged.write_bytes(b"not a model")
    fresh = Embedder(cache_dir=tmp_path).load()
    assert fresh.backend == "onnx"
    assert damaged.stat().st_size > 1_000_000 and damaged.stat().st_mode & 0o044
    np.testing.assert_allclose(fresh.embed(TEXTS), embedder.embed(TEXTS), atol=1e-5)


def test_an_unwritable_cache_falls_back_to_pytorch(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache directory should be")
    fallback = Embedder(cache_dir=blocker / "onnx").load()
    assert fallback.backend == "torch"
    assert fallback.embed(["Ada prefers tea"]).shape == (1, 384)


def test_the_export_cache_is_keyed_by_the_model_files_content(
    embedder: Embedder, tmp_path: Path
) -> None:
    """The same files written anew (a reinstall: new mtimes) keep the key, so the cache holds
    one export per model; a changed file changes it."""
    model = onnx_encoder.spec(embedder.model_path)
    assert model is not None
    copy = tmp_path / "model"
    shutil.copytree(model.directory, copy, copy_function=shutil.copy)  # new mtimes
    copied = onnx_encoder.spec(copy)
    assert copied is not None
    assert onnx_encoder.cache_key(copied) == onnx_encoder.cache_key(model)
    config = copy / "sentence_bert_config.json"
    config.write_text(config.read_text() + "\n")
    assert onnx_encoder.cache_key(copied) != onnx_encoder.cache_key(model)
