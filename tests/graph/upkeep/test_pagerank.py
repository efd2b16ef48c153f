from __future__ import annotations

import math
import random
from typing import Any

import networkx as nx
import pytest

from hippograph.graph.upkeep.pagerank import PageRankConfig, normalized, pagerank

# Run to the fixed point: 0.85**1000 is far below double precision.
CONVERGED = PageRankConfig(max_iterations=1000, tolerance=0.0)

# The example graph of the GDS manual (algorithms/page-rank.adoc) and the scores it prints.
GDS_NODES = ["Home", "About", "Product", "Links", "Site A", "Site B", "Site C", "Site D"]
GDS_EDGES = [
    ("Home", "About", 0.2),
    ("Home", "Links", 0.2),
    ("Home", "Product", 0.6),
    ("About", "Home", 1.0),
    ("Product", "Home", 1.0),
    ("Site A", "Home", 1.0),
    ("Site B", "Home", 1.0),
    ("Site C", "Home", 1.0),
    ("Site D", "Home", 1.0),
    ("Links", "Home", 0.8),
    ("Links", "Site A", 0.05),
    ("Links", "Site B", 0.05),
    ("Links", "Site C", 0.05),
    ("Links", "Site D", 0.05),
]
GDS_UNWEIGHTED = [(source, target, 1.0) for source, target, _ in GDS_EDGES]


def _gds_table(
    home: float, linked: float, site: float, *, product: float = 0.0
) -> dict[str, float]:
    """One table of the manual: About and Links score ``linked``; Product too unless given."""
    sites = dict.fromkeys(["Site A", "Site B", "Site C", "Site D"], site)
    return {"Home": home, "About": linked, "Product": product or linked, "Links": linked, **sites}


@pytest.mark.parametrize(
    ("edges", "config", "expected"),
    [
        pytest.param(
            GDS_UNWEIGHTED,
            PageRankConfig(),
            _gds_table(3.215681999884452, 1.0542700552146722, 0.3278578964488539),
            id="stream-unweighted",
        ),
        pytest.param(
            GDS_EDGES,
            PageRankConfig(),
            _gds_table(
                3.53751028396339,
                0.7452612763883698,
                0.18152677135466103,
                product=1.9357838291651097,
            ),
            id="weighted",
        ),
        pytest.param(
            GDS_UNWEIGHTED,
            PageRankConfig(tolerance=0.1),
            _gds_table(1.5812450669583336, 0.5980194356381945, 0.23374955154166668),
            id="tolerance-0.1",
        ),
        pytest.param(
            GDS_UNWEIGHTED,
            PageRankConfig(damping=0.05),
            _gds_table(1.2487309425844906, 0.9708121818724536, 0.9597081216238426),
            id="damping-0.05",
        ),
    ],
)
def test_reproduces_the_gds_manual_examples(
    edges: list[tuple[str, str, float]], config: PageRankConfig, expected: dict[str, float]
) -> None:
    scores = pagerank(GDS_NODES, edges, config)
    assert scores == pytest.approx(expected, rel=1e-12)


def _strongly_connected(n: int, extra: int, seed: int) -> list[tuple[str, str, float]]:
    """A weighted cycle through every node (so none dangles) plus random chords."""
    rng = random.Random(seed)
    edges = [(f"n{i}", f"n{(i + 1) % n}", rng.uniform(0.1, 3.0)) for i in range(n)]
    for _ in range(extra):
        source, target = rng.sample(range(n), 2)
        edges.append((f"n{source}", f"n{target}", rng.uniform(0.1, 3.0)))
    return edges


@pytest.mark.parametrize(("n", "extra", "seed"), [(5, 4, 1), (30, 90, 2), (200, 1000, 3)])
def test_matches_networkx_up_to_scale_without_dangling_nodes(n: int, extra: int, seed: int) -> None:
    # With no dangling node networkx's teleport and dangling terms vanish, and the GDS fixed
    # point is networkx's times n: x = (1-d) + d M x sums to n, p = (1-d)/n + d M p to 1.
    edges = _strongly_connected(n, extra, seed)
    graph = nx.DiGraph()
    for source, target, weight in edges:  # networkx keeps one edge per pair: sum duplicates
        previous = graph.get_edge_data(source, target, {"weight": 0.0})["weight"]
        graph.add_edge(source, target, weight=previous + weight)
    nodes = [f"n{i}" for i in range(n)]

    scores = pagerank(nodes, edges, CONVERGED)
    reference = nx.pagerank(graph, alpha=0.85, weight="weight", tol=1e-15, max_iter=10_000)

    assert sum(scores.values()) == pytest.approx(n, rel=1e-12)
    total = sum(scores.values())
    assert {node: score / total for node, score in scores.items()} == pytest.approx(
        reference, rel=1e-9
    )


def test_two_node_cycle_gets_one_minus_d_to_the_twentieth_by_default() -> None:
    # Superstep k adds 0.15 * 0.85**k to each node; 20 supersteps sum to 1 - 0.85**20.
    scores = pagerank(["a", "b"], [("a", "b", 1.0), ("b", "a", 1.0)])
    assert scores == pytest.approx({"a": 1 - 0.85**20, "b": 1 - 0.85**20}, rel=1e-14)


def test_two_node_cycle_converges_to_one() -> None:
    scores = pagerank(["a", "b"], [("a", "b", 1.0), ("b", "a", 1.0)], CONVERGED)
    assert scores == pytest.approx({"a": 1.0, "b": 1.0}, rel=1e-14)


def test_tolerance_stops_propagating_small_changes() -> None:
    # Changes 0.15 * 0.85**k are forwarded while above 1e-7, i.e. for k <= 87; the change of
    # superstep 88 is kept but not forwarded, so the rank is the sum for k = 0..88.
    last = next(k for k in range(1000) if 0.15 * 0.85**k <= 1e-7)
    assert last == 88
    config = PageRankConfig(max_iterations=1000)
    scores = pagerank(["a", "b"], [("a", "b", 1.0), ("b", "a", 1.0)], config)
    assert scores["a"] == pytest.approx(1 - 0.85 ** (last + 1), rel=1e-14)


def test_star_into_a_dangling_centre() -> None:
    leaves = [f"leaf{i}" for i in range(4)]
    scores = pagerank(["hub", *leaves], [(leaf, "hub", 1.0) for leaf in leaves])
    assert scores["hub"] == pytest.approx(0.15 + 0.85 * 4 * 0.15, rel=1e-14)  # 0.66
    assert all(scores[leaf] == pytest.approx(0.15, rel=1e-14) for leaf in leaves)


def test_star_out_of_the_centre_splits_its_rank() -> None:
    leaves = [f"leaf{i}" for i in range(4)]
    scores = pagerank(["hub", *leaves], [("hub", leaf, 1.0) for leaf in leaves])
    assert scores["hub"] == pytest.approx(0.15, rel=1e-14)
    assert all(scores[leaf] == pytest.approx(0.15 + 0.85 * 0.15 / 4, rel=1e-14) for leaf in leaves)


def test_dangling_mass_is_not_redistributed() -> None:
    scores = pagerank(["a", "b", "c", "lonely"], [("a", "b", 1.0), ("b", "c", 1.0)])
    assert scores == pytest.approx(
        {"a": 0.15, "b": 0.2775, "c": 0.15 + 0.85 * 0.2775, "lonely": 0.15}, rel=1e-14
    )
    # networkx would hand c's rank back to everyone; GDS leaks it, so the sum stays below n.
    assert sum(scores.values()) == pytest.approx(0.15 * 3 + 0.2775 + 0.85 * 0.2775, rel=1e-14)


def test_weights_shift_rank_towards_heavier_edges() -> None:
    nodes = ["src", "heavy", "light"]
    weighted = pagerank(nodes, [("src", "heavy", 3.0), ("src", "light", 1.0)])
    unweighted = pagerank(nodes, [("src", "heavy", 1.0), ("src", "light", 1.0)])
    assert weighted["heavy"] == pytest.approx(0.15 + 0.85 * 0.15 * 0.75, rel=1e-14)
    assert weighted["light"] == pytest.approx(0.15 + 0.85 * 0.15 * 0.25, rel=1e-14)
    assert unweighted["heavy"] == unweighted["light"] == pytest.approx(0.15 + 0.85 * 0.075)
    # On the manual's graph, weights lift Product (0.6 from Home) above About and Links (0.2).
    gds_weighted = pagerank(GDS_NODES, GDS_EDGES)
    gds_unweighted = pagerank(GDS_NODES, GDS_UNWEIGHTED)
    assert gds_weighted["Product"] > 2 * gds_weighted["About"]
    assert gds_unweighted["Product"] == gds_unweighted["About"]


def test_scaling_every_weight_changes_nothing() -> None:
    edges = _strongly_connected(20, 40, seed=9)
    nodes = [f"n{i}" for i in range(20)]
    scaled = [(source, target, weight * 7.5) for source, target, weight in edges]
    assert pagerank(nodes, scaled) == pytest.approx(pagerank(nodes, edges), rel=1e-12)


def test_duplicate_edges_sum_their_weights() -> None:
    nodes = ["a", "b", "c"]
    split = pagerank(nodes, [("a", "b", 1.0), ("a", "b", 2.0), ("a", "c", 1.0)])
    merged = pagerank(nodes, [("a", "b", 3.0), ("a", "c", 1.0)])
    assert split == pytest.approx(merged, rel=1e-15)
    assert split["b"] == pytest.approx(0.15 + 0.85 * 0.15 * 0.75, rel=1e-14)


def test_zero_weight_edges_are_ignored() -> None:
    nodes = ["a", "b", "c"]
    with_zero = pagerank(nodes, [("a", "b", 1.0), ("a", "c", 0.0), ("c", "a", 0.0)])
    without = pagerank(nodes, [("a", "b", 1.0)])
    assert with_zero == without
    assert with_zero["c"] == pytest.approx(0.15, rel=1e-15)  # received and sent nothing


def test_isolated_nodes_score_one_minus_damping() -> None:
    scores = pagerank(["x", "y"], [], PageRankConfig(damping=0.6))
    assert scores == pytest.approx({"x": 0.4, "y": 0.4}, rel=1e-15)


def test_empty_graph() -> None:
    assert pagerank([], []) == {}


@pytest.mark.parametrize(
    "edge",
    [("a", "ghost", 1.0), ("ghost", "a", 1.0), ("a", "b", -0.5), ("a", "b", math.nan)],
)
def test_rejects_bad_edges(edge: tuple[str, str, float]) -> None:
    with pytest.raises(ValueError, match="edges"):
        pagerank(["a", "b"], [edge])


def test_rejects_repeated_node_ids() -> None:
    with pytest.raises(ValueError, match="node_ids"):
        pagerank(["a", "a"], [])


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"damping": 1.0}, "damping"),
        ({"damping": -0.1}, "damping"),
        ({"max_iterations": 0}, "max_iterations"),
        ({"tolerance": -1e-9}, "tolerance"),
    ],
)
def test_config_rejects_out_of_range_values(overrides: dict[str, Any], field: str) -> None:
    with pytest.raises(ValueError, match=field):
        PageRankConfig(**overrides)


def test_normalized_divides_by_the_maximum() -> None:
    assert normalized({"a": 2.0, "b": 0.5, "c": 4.0}) == {"a": 0.5, "b": 0.125, "c": 1.0}
    assert normalized({}) == {}
    assert normalized({"a": 0.0}) == {"a": 0.0}


def test_normalized_gds_scores_rank_home_first() -> None:
    importance = normalized(pagerank(GDS_NODES, GDS_EDGES))
    assert importance["Home"] == 1.0
    assert importance["Site A"] == pytest.approx(0.18152677135466103 / 3.53751028396339)


@pytest.mark.slow
def test_runs_on_100k_nodes_and_500k_edges() -> None:
    # Timing lives in a benchmark; this only checks the size is handled and sane.
    rng = random.Random(11)
    n, m = 100_000, 500_000
    nodes = [f"m{i}" for i in range(n)]
    edges = [(nodes[rng.randrange(n)], nodes[rng.randrange(n)], rng.random()) for _ in range(m)]
    scores = pagerank(nodes, edges)
    assert len(scores) == n
    assert min(scores.values()) >= 0.15 - 1e-12
    assert all(math.isfinite(score) for score in scores.values())
    assert sum(scores.values()) <= n + 1e-6  # dangling nodes leak rank, nothing creates it
