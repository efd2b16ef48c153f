"""The embedding model on ONNX Runtime: exported once, locally, from the sentence-transformers
model, cached, and checked against it before it is used.

On 2 CPU cores ONNX Runtime embeds one short query in about 4 ms where PyTorch eager takes
about 16 ms, and batches of short texts 1.6-2x faster; the vectors agree to a cosine of
0.9999999. Serving with a cached export imports neither torch nor sentence-transformers, which
is most of a cold start.

Only the layout of all-MiniLM-L6-v2 and its kin is handled here: a Transformer module followed
by mean or CLS pooling (and optionally Normalize; vectors are always normalized). Any other
model directory returns None from ``spec`` and is served by PyTorch.

The export needs ``torch``, ``sentence-transformers`` and ``onnx``; it takes a few seconds and
happens once per model (the cache key covers the content of every file of the model
directory). The exported file is written next to its final name and renamed into place, so
concurrent processes never read half a file.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import tempfile
import threading
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hippograph.graph.errors import STOPPING, GraphUnavailable

log = logging.getLogger(__name__)

# Bumped when the exported graph or the way it is read changes: old cache entries are ignored.
EXPORT_VERSION = "1"
# The export is kept only if it agrees with PyTorch at least this well on PARITY_TEXTS.
PARITY_MIN_COSINE = 0.9999
PARITY_TEXTS = (
    "Ada prefers tea over coffee.",
    "What did Caroline say about the adoption agency on 8 May 2023?",
    "never run `rm -rf /` on the build host; use the cleanup script in tools/clean.sh",
    "Zürich — naïve café résumé 東京 🙂",
    " ".join(["The long memory keeps going past the model's sequence limit."] * 60),
)


@dataclass(frozen=True, kw_only=True)
class ModelSpec:
    """What serving a sentence-transformers directory on ONNX Runtime needs to know of it."""

    directory: Path
    max_seq_length: int
    pooling: str  # "mean" | "cls"
    dimensions: int


def spec(model_dir: str | Path) -> ModelSpec | None:
    """The model's layout if ONNX Runtime can serve it exactly as sentence-transformers does."""
    root = Path(model_dir)
    try:
        modules = json.loads((root / "modules.json").read_text())
        kinds = [m["type"].rsplit(".", 1)[-1] for m in modules]
        if kinds not in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"]):
            return None
        if not (root / "tokenizer.json").is_file() or modules[0].get("path", "") != "":
            return None
        pooling = json.loads((root / modules[1]["path"] / "config.json").read_text())
        config = json.loads((root / "sentence_bert_config.json").read_text())
    except (OSError, KeyError, IndexError, TypeError, ValueError):
        return None
    modes = {k for k, v in pooling.items() if k.startswith("pooling_mode_") and v is True}
    mode = {"pooling_mode_mean_tokens": "mean", "pooling_mode_cls_token": "cls"}.get(
        next(iter(modes)) if len(modes) == 1 else ""
    )
    if mode is None or "word_embedding_dimension" not in pooling:
        return None
    return ModelSpec(
        directory=root,
        max_seq_length=int(config.get("max_seq_length", 256)),
        pooling=mode,
        dimensions=int(pooling["word_embedding_dimension"]),
    )


def cache_key(model: ModelSpec) -> str:
    """Changes when the content of any file of the model directory changes (or its name): a
    reinstall that writes the same files anew keeps the key, so the cache holds one export per
    model, not one per install (keyed by mtime, a machine that reinstalled 36 times held 36
    copies, 3.3 GB). Hashing reads the directory (~90 MB, ~0.1 s); a process does it once per
    state of the directory (name, size, mtime of its files)."""
    files = sorted(p for p in model.directory.rglob("*") if p.is_file())
    state = tuple(
        (p.relative_to(model.directory).as_posix(), p.stat().st_size, p.stat().st_mtime_ns)
        for p in files
    )
    return _content_key(model.directory, state)


@functools.lru_cache(maxsize=8)
def _content_key(directory: Path, state: tuple[tuple[str, int, int], ...]) -> str:
    digest = hashlib.sha256(f"{EXPORT_VERSION}\0content\n".encode())
    for rel, _size, _mtime in state:
        digest.update(f"{rel}\0".encode())
        with (directory / rel).open("rb") as f:
            digest.update(hashlib.file_digest(f, "sha256").digest())
    return digest.hexdigest()[:32]


class OnnxEncoder:
    """Normalized sentence embeddings from an exported model. ``encode`` is thread-safe (ONNX
    Runtime sessions are); callers that want one forward pass at a time serialize it."""

    def __init__(self, onnx_path: Path, model: ModelSpec, *, threads: int) -> None:
        from tokenizers import Tokenizer

        self._path = onnx_path
        self._session = _session(onnx_path, threads)
        # One short text (a recall's query) embeds as fast on one thread as on several, and a
        # second thread only takes a core from the graph engine answering beside it (100k
        # bench: 4.7-5.2 ms of CPU a query on one thread, 5.2-5.8 on two, the same vectors).
        self._single = self._session if threads == 1 else None
        self._single_lock = threading.Lock()
        self._runs: dict[int, Any] = {}  # the RunOptions of the passes running now (``stop``)
        self._runs_lock = threading.Lock()
        self._stopped = False
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer = Tokenizer.from_file(str(model.directory / "tokenizer.json"))
        self._tokenizer.enable_truncation(model.max_seq_length)
        self._tokenizer.enable_padding()
        self.model = model

    def encode(self, texts: Sequence[str], *, batch_size: int) -> np.ndarray:
        """(len(texts), dimensions) float32 unit vectors; batches of similar length together."""
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.model.dimensions), dtype=np.float32)
        for start in range(0, len(order), batch_size):
            chunk = order[start : start + batch_size]
            out[chunk] = self._forward([texts[i] for i in chunk])
        return out

    def _forward(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.array([e.type_ids for e in encodings], dtype=np.int64)
        session = self._single_session() if len(texts) == 1 else self._session
        hidden = self._run(session, feed, shrink=len(texts) > 1)
        if self.model.pooling == "cls":
            pooled = hidden[:, 0]
        else:
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return np.asarray(pooled / np.clip(norms, 1e-12, None), dtype=np.float32)

    def stop(self) -> None:
        """End the forward passes running now (ONNX Runtime's ``terminate``: a batch of long
        texts took seconds on a busy machine, holding a stop up) and refuse later ones, with
        ``GraphUnavailable``: the process is stopping."""
        with self._runs_lock:
            self._stopped = True
            for options in self._runs.values():
                options.terminate = True

    def _run(self, session: Any, feed: dict[str, np.ndarray], *, shrink: bool) -> np.ndarray:
        import onnxruntime as ort

        options = ort.RunOptions()
        if shrink:
            # ONNX Runtime's memory arena grows to the largest pass it has run and keeps it for
            # good (docs/research/scale.md). A batch hands what it grew back at its end; one
            # text's pass (a recall's query) is small and keeps its arena.
            options.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")
        with self._runs_lock:
            if self._stopped:
                raise GraphUnavailable(STOPPING)
            self._runs[id(options)] = options
        try:
            return np.asarray(session.run(None, feed, options)[0])
        except Exception as exc:
            if self._stopped:
                raise GraphUnavailable(STOPPING) from exc
            raise
        finally:
            with self._runs_lock:
                self._runs.pop(id(options), None)

    def _single_session(self) -> Any:
        """The one-thread session for one text, opened on first use (a second copy of the
        model's weights, ~90 MB for the default model)."""
        with self._single_lock:
            if self._single is None:
                self._single = _session(self._path, 1)
            return self._single


def _session(onnx_path: Path, threads: int) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # Idle worker threads would spin on the cores the embedded graph engine runs on.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(onnx_path), options, providers=["CPUExecutionProvider"])


def load(model: ModelSpec, cache_dir: Path, *, threads: int) -> OnnxEncoder:
    """The cached export of ``model`` on ONNX Runtime, exporting and checking it first if the
    cache has none, or has one ONNX Runtime cannot load (a damaged file is replaced). Raises
    ``OnnxUnavailable`` when the export fails or disagrees."""
    target = cache_dir.expanduser() / f"{cache_key(model)}.onnx"
    if target.is_file():
        try:
            return OnnxEncoder(target, model, threads=threads)
        except Exception as exc:  # noqa: BLE001 - whatever is wrong with it, export again
            log.warning("cached ONNX export %s does not load (%s); exporting again", target, exc)
            target.unlink(missing_ok=True)
    torch_model = _export(model, target)
    try:
        encoder = OnnxEncoder(target, model, threads=threads)
        log.info("exporting to ONNX: checking its vectors against PyTorch's")
        check_parity(encoder, torch_model)
    except Exception as exc:
        target.unlink(missing_ok=True)
        if isinstance(exc, OnnxUnavailable):
            raise
        raise OnnxUnavailable(f"the ONNX export of {model.directory} does not load: {exc}") from exc
    return encoder


class OnnxUnavailable(RuntimeError):
    """The model cannot be served on ONNX Runtime (missing package, export or parity failure)."""


def check_parity(encoder: OnnxEncoder, torch_model: Any) -> float:
    """The lowest cosine between ONNX and PyTorch vectors of PARITY_TEXTS; raises below the bar."""
    reference = torch_model.encode(
        list(PARITY_TEXTS),
        normalize_embeddings=True,
        convert_to_numpy=True,
        show_progress_bar=False,
    )
    ours = encoder.encode(PARITY_TEXTS, batch_size=len(PARITY_TEXTS))
    worst = float((np.asarray(reference, dtype=np.float32) * ours).sum(axis=1).min())
    if worst < PARITY_MIN_COSINE:
        raise OnnxUnavailable(f"ONNX export disagrees with PyTorch (cosine {worst:.6f})")
    return worst


def _torch_model(model: ModelSpec) -> Any:
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(model.directory), device="cpu")


def _export(model: ModelSpec, target: Path) -> Any:
    """Export ``model`` to ``target``; returns the PyTorch model it was exported from."""
    # Each step is logged (serve shows INFO): a first start is otherwise silent for as long
    # as the export takes.
    log.info("exporting %s to ONNX, once for this model (about 10 s)", model.directory)
    started = time.perf_counter()
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".onnx.part")
    os.close(fd)
    try:
        import torch

        class Hidden(torch.nn.Module):
            """The transformer's last hidden state from positional inputs (what export traces)."""

            def __init__(self, inner: Any, names: list[str]) -> None:
                super().__init__()
                self.inner = inner
                self.names = names

            def forward(self, *inputs: Any) -> Any:
                return self.inner(**dict(zip(self.names, inputs, strict=True))).last_hidden_state

        log.info("exporting to ONNX: loading the model on PyTorch")
        st = _torch_model(model)
        log.info("exporting to ONNX: tracing the model (%.1fs)", time.perf_counter() - started)
        sample = st.tokenizer(["hello world"], return_tensors="pt")
        names = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in sample]
        # The tracer's warnings are about code paths export does not take (and an error under
        # a warnings-as-errors test run).
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                Hidden(st[0].auto_model.eval(), names),
                tuple(sample[n] for n in names),
                tmp,
                input_names=names,
                output_names=["last_hidden_state"],
                dynamic_axes={n: {0: "batch", 1: "tokens"} for n in [*names, "last_hidden_state"]},
                opset_version=17,
                dynamo=False,
            )
        os.chmod(tmp, 0o644)  # readable by whoever serves from a shared cache
        os.replace(tmp, target)
    except Exception as exc:  # noqa: BLE001 - any failure means "serve on PyTorch instead"
        raise OnnxUnavailable(f"ONNX export of {model.directory} failed: {exc}") from exc
    finally:
        Path(tmp).unlink(missing_ok=True)
    log.info(
        "exported %s to ONNX in %.1fs: %s", model.directory, time.perf_counter() - started, target
    )
    return st
