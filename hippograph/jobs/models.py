"""The embedding model the jobs load: one per process, model and backend (the worker keeps it
between ticks)."""

from __future__ import annotations

import threading

from hippograph.graph.models.embedder import Embedder
from hippograph.settings import Settings

_EMBEDDERS: dict[str, Embedder] = {}
_EMBEDDERS_LOCK = threading.Lock()


def embedder(settings: Settings) -> Embedder:
    """The configured model, loaded once per process."""
    with _EMBEDDERS_LOCK:
        key = f"{settings.embedding.model}\0{settings.embedding.backend}"
        if key not in _EMBEDDERS:
            _EMBEDDERS[key] = Embedder.from_settings(settings).load()
        return _EMBEDDERS[key]
