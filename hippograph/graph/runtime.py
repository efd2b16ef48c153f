"""Everything a process needs to serve or maintain memories, opened once and closed once."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from hippograph.graph import privacy
from hippograph.graph.embedder import Embedder
from hippograph.graph.memories import WritePolicy
from hippograph.graph.store import Store
from hippograph.graph.validate import Limits
from hippograph.settings import Settings

log = logging.getLogger(__name__)


@dataclass
class Runtime:
    settings: Settings
    store: Store
    embedder: Embedder
    policy: WritePolicy

    @classmethod
    def open(cls, settings: Settings, *, attach: bool = True) -> Runtime:
        """Open the graph (starting the embedded engine if needed), load the embedding model,
        install the schema. ``attach`` as in ``Store.open``."""
        started = time.perf_counter()
        store = Store.open(settings, attach=attach)
        try:
            embedder = Embedder(settings.embedding_model, batch_size=settings.embedding_batch_size)
            embedder.load()
            store.install_schema(dimensions=embedder.dimensions)
        except BaseException:
            store.close()
            raise
        log.info("runtime ready in %.1fs (%s)", time.perf_counter() - started, store.location)
        return cls(settings, store, embedder, write_policy(settings))

    @property
    def limits(self) -> Limits:
        return self.policy.limits

    def close(self) -> None:
        self.store.close()


def write_policy(settings: Settings) -> WritePolicy:
    """The write path's content filter and tag inference, as configured."""
    mode = settings.privacy_mode

    def content_filter(text: str, field: str) -> str:
        return privacy.apply(text, field=field, mode=mode)

    return WritePolicy(
        limits=Limits(
            max_content_bytes=settings.max_content_bytes,
            max_batch=settings.max_batch,
            max_k=settings.max_k,
        ),
        content_filter=content_filter,
    )
