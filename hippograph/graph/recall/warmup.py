"""Warming the recall path at start-up, so that the first real recall is as fast as the next.

A fresh server's first recall paid for everything done once: each recall statement parsed and
planned by the engine, the driver's connections opened, the model's first inference. The
warm-up does that before the server says it is ready: it plans (``EXPLAIN``) every ``recall/``
statement with representative parameters (``graph/store/samples.py``: Neo4j caches a plan by
its text and its parameters' types, and a statement planned without its parameters gets a
"parameter missing" warning and no cached plan), runs one recall on a namespace of its own that
holds nothing, then one on a namespace that holds memories (the engine's code for expansion and
scoring only runs on real rows, and was most of what remained). Recalls without a session, and
without the upkeep that follows a client's recall, write nothing; what they return is dropped.

On the embedded engine with 2,000 memories (bench/first_recall.py, 2 busy cores, 3 fresh
processes each): the first recall took 2.9-5.8 s (median 5.2 s) cold, 0.27-0.57 s (median
0.29 s) after a warm-up of 2.9-4.9 s; with the empty-namespace recall alone it was still
1.1-2.6 s (the expansion statement, never run on rows, cost most of it).
"""

from __future__ import annotations

import logging
import time

from hippograph.graph.models.embedder import Embedder
from hippograph.graph.recall import retrieval
from hippograph.graph.recall.recall_config import CascadeConfig
from hippograph.graph.recall.recipes import DEFAULT_CASCADE
from hippograph.graph.store import queries, samples
from hippograph.graph.store.store import Store, mapped_errors, statement

log = logging.getLogger(__name__)
WARMUP_NAMESPACE = "hippograph.warmup"
WARMUP_CONTEXT = "What did we plan for the garden last weekend, and who is coming?"


def statement_names() -> list[str]:
    """The recall statements."""
    return sorted(n for n in queries.all_names() if n.startswith("recall/"))


def warm(
    store: Store,
    embedder: Embedder,
    *,
    config: CascadeConfig = DEFAULT_CASCADE,
    services: retrieval.Services = retrieval.Services(),  # noqa: B008 - frozen
) -> float:
    """Plan every recall statement and run the warm-up recalls; return the seconds it took.

    Parameters:
        store: the open store (the engine's plan caches are warmed through it).
        embedder: the loaded model (its first inference happens here).
        config: the cascade the server recalls with.
        services: the server's limits and recall caches (the caches it warms).
    """
    started = time.perf_counter()
    for name in statement_names():
        query = queries.load(name, store.dialect.name)
        sample = samples.parameters(query, dimensions=embedder.dimensions)
        text, params = statement(store.dialect, name, sample)
        with mapped_errors():
            store.driver.execute_query(f"EXPLAIN {text}", params, database_=store.database)
    request = retrieval.RecallRequest(context=WARMUP_CONTEXT, k=10)
    namespaces = [WARMUP_NAMESPACE]
    namespaces += [r["namespace"] for r in store.read("recall/warmup_namespace")]
    for namespace in namespaces:
        retrieval.recall(store, embedder, namespace, request, config, services=services)
    took = time.perf_counter() - started
    log.info("recall warmed up in %.2fs (%s)", took, store.dialect.name)
    return took
