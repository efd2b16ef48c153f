"""The PageRank job through Graph Data Science: the client API it calls exists in the installed
``graphdatascience`` (the ``[gds]`` extra), and, on a Neo4j with the plugin
(``HIPPOGRAPH_TEST_NEO4J_GDS=1``), scores the same graph as the in-process path."""

from __future__ import annotations

import inspect
import os
import re
import tomllib
from importlib import metadata

import pytest

from hippograph.graph.runtime import Runtime
from hippograph.graph.upkeep.pagerank import PageRankConfig, pagerank
from hippograph.jobs import registry
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import RunOptions
from tests.conftest import ROOT
from tests.jobs.conftest import add_edge, add_memory, memory_props

NEO4J_GDS = os.environ.get("HIPPOGRAPH_TEST_NEO4J_GDS") == "1"


def _gds_extra() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (spec,) = project["project"]["optional-dependencies"]["gds"]
    return str(spec)


def test_the_installed_client_is_the_major_version_the_extra_names() -> None:
    pytest.importorskip("graphdatascience", reason="the [gds] extra is not installed")
    low, high = re.fullmatch(r"graphdatascience>=([\d.]+),<(\d+)", _gds_extra()).groups()  # type: ignore[union-attr]
    installed = tuple(int(p) for p in metadata.version("graphdatascience").split(".")[:2])
    assert tuple(int(p) for p in low.split(".")) <= installed < (int(high),)


def test_the_client_api_the_pagerank_job_calls_exists() -> None:
    """What jobs/pagerank.py calls: ``GraphDataScience(driver, database=, arrow=,
    show_progress=)``, ``gds.graph.project.cypher(query, **params)`` returning ``(graph,
    result)`` with ``result.relationship_count``, and ``graph.drop(fail_if_missing=)``."""
    gds = pytest.importorskip("graphdatascience", reason="the [gds] extra is not installed")
    from graphdatascience.procedure_surface.cypher.catalog.catalog_cypher_endpoints import (
        CatalogCypherEndpoints,
    )
    from graphdatascience.procedure_surface.cypher.catalog.projection_cypher_endpoints import (
        GraphCypherProjectResult,
        GraphWithCypherProjectResult,
        ProjectCypherEndpoints,
    )

    built = inspect.signature(gds.GraphDataScience)
    assert {"endpoint", "database", "arrow", "show_progress"} <= set(built.parameters)
    assert "Driver" in str(built.parameters["endpoint"].annotation)
    assert isinstance(inspect.getattr_static(gds.GraphDataScience, "graph"), property)
    assert inspect.signature(gds.GraphDataScience.graph.fget).return_annotation in (
        CatalogCypherEndpoints,
        "CatalogCypherEndpoints",
    )
    assert isinstance(inspect.getattr_static(CatalogCypherEndpoints, "project"), property)
    project = inspect.signature(ProjectCypherEndpoints.cypher)
    assert list(project.parameters) == ["self", "query", "params"]
    assert project.parameters["params"].kind is inspect.Parameter.VAR_KEYWORD
    assert GraphWithCypherProjectResult._fields == ("graph", "result")
    assert "relationship_count" in GraphCypherProjectResult.model_fields
    assert "fail_if_missing" in inspect.signature(gds.Graph.drop).parameters


@pytest.mark.neo4j
@pytest.mark.skipif(not NEO4J_GDS, reason="HIPPOGRAPH_TEST_NEO4J_GDS=1 names a Neo4j with GDS")
def test_pagerank_through_gds_matches_the_in_process_scores(
    neo4j_runtime: Runtime, namespace: str
) -> None:
    pytest.importorskip("graphdatascience", reason="the [gds] extra is not installed")
    store = neo4j_runtime.store
    ids = [add_memory(store, namespace) for _ in range(8)]
    for i in range(8):  # a ring with one chord: no dangling node
        add_edge(store, ids[i], ids[(i + 1) % 8], weight=1.0, confidence=0.5 + i / 20)
    add_edge(store, ids[0], ids[4], weight=0.8, confidence=0.9)
    add_edge(store, ids[2], ids[6], weight=1.0, confidence=0.05)  # under the recall floor
    config = JobsConfig(pagerank=PageRankConfig(max_iterations=1000, tolerance=1e-12))
    options = RunOptions(namespace=namespace, trigger="test")
    through_gds = registry.run_job(store, "pagerank", config, options)
    assert through_gds.counts["gds"] == 1 and through_gds.counts["edges"] == 9
    gds_scores = {i: p["pagerank"] for i, p in memory_props(store, namespace).items()}
    rows = store.read(
        "job/pagerank_edges", namespace=namespace, floor=config.settings.recall.min_edge_confidence
    )
    both_ways = [(r["source"], r["target"], float(r["weight"])) for r in rows]
    both_ways += [(b, a, w) for a, b, w in both_ways]
    in_process = pagerank(ids, both_ways, config.pagerank)
    for memory_id in ids:
        assert gds_scores[memory_id] == pytest.approx(in_process[memory_id], rel=1e-4)
