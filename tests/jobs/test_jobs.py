"""The maintenance jobs on the embedded engine, with a frozen clock."""

from __future__ import annotations

import math
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import networkx as nx
import numpy as np
import pytest

from hippograph.graph.store.store import Store
from hippograph.graph.upkeep.pagerank import PageRankConfig
from hippograph.jobs import registry
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import RunOptions
from hippograph.settings import Settings
from tests.jobs.conftest import add_edge, add_memory, edges, memory_props

NOW = datetime(2025, 6, 1, tzinfo=UTC)


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def run(store: Store, name: str, namespace: str, config: JobsConfig | None = None, **kw: object):  # type: ignore[no-untyped-def]
    options = RunOptions(namespace=namespace, as_of=NOW, trigger="test", **kw)  # type: ignore[arg-type]
    return registry.run_job(store, name, config or JobsConfig(), options)


def test_decay_job_applies_the_formula_with_a_frozen_clock(store: Store, namespace: str) -> None:
    created = NOW - timedelta(days=30)
    fact = add_memory(store, namespace, created_at=iso(created), initial_confidence=0.9)
    used = add_memory(
        store,
        namespace,
        memory_type="preference",
        created_at=iso(created),
        last_accessed=iso(NOW - timedelta(days=9)),
        access_count=4,
        trust_score=0.8,
    )
    inferred = add_memory(store, namespace, provenance="inferred", created_at=iso(created))
    result = run(store, "decay", namespace)
    assert result.status == "succeeded" and result.counts["updated"] == 3
    props = memory_props(store, namespace)
    assert props[fact]["confidence"] == pytest.approx(0.9 * math.exp(-1))
    assert props[used]["confidence"] == pytest.approx(
        0.9 * math.exp(-9 / 90) * (1 + 0.1 * math.log(5)) * 0.8
    )
    assert props[inferred]["confidence"] == pytest.approx(0.9 * math.exp(-30 / 7))
    again = run(store, "decay", namespace)  # same clock: nothing left to change
    assert again.counts.get("updated", 0) == 0 and again.counts["unchanged"] == 3


def test_decay_job_archives_unconfirmed_speculation(store: Store, namespace: str) -> None:
    old = iso(NOW - timedelta(days=31))
    guess = add_memory(store, namespace, created_at=old, initial_confidence=0.3, confidence=0.3)
    restated = add_memory(
        store, namespace, created_at=old, initial_confidence=0.3, confidence=0.3, strength=2
    )
    fresh = add_memory(
        store, namespace, created_at=iso(NOW - timedelta(days=29)), initial_confidence=0.3
    )
    faded = add_memory(store, namespace, created_at=iso(NOW - timedelta(days=300)))
    result = run(store, "decay", namespace)
    assert result.counts["archived"] == 1
    status = {k: v["status"] for k, v in memory_props(store, namespace).items()}
    assert status == {guess: "archived", restated: "active", fresh: "active", faded: "active"}


def test_edge_decay_is_linear_per_window_with_a_floor_and_idempotent(
    store: Store, namespace: str
) -> None:
    a, b, c, d = (add_memory(store, namespace) for _ in range(4))
    # 7 days grace, then -0.05 per whole week: 7 + 21.5 days ago -> 3 windows.
    add_edge(store, a, b, confidence=0.8, last_reinforced_at=iso(NOW - timedelta(days=28.5)))
    add_edge(store, b, c, confidence=0.8, last_reinforced_at=iso(NOW - timedelta(days=6)))
    add_edge(store, c, d, confidence=0.2, last_reinforced_at=iso(NOW - timedelta(days=400)))
    result = run(store, "edges", namespace)
    assert result.status == "succeeded"
    e = edges(store, namespace)
    assert e[(a, b)]["confidence"] == pytest.approx(0.65)
    assert e[(b, c)]["confidence"] == pytest.approx(0.8)  # still in its grace period
    assert e[(c, d)]["confidence"] == pytest.approx(0.1)  # the floor
    # Same clock again: no window is applied twice.
    run(store, "edges", namespace)
    assert edges(store, namespace)[(a, b)]["confidence"] == pytest.approx(0.65)
    # A week later, one more window.
    later = registry.run_job(
        store,
        "edges",
        JobsConfig(),
        RunOptions(namespace=namespace, as_of=NOW + timedelta(days=7)),
    )
    assert later.status == "succeeded"
    assert edges(store, namespace)[(a, b)]["confidence"] == pytest.approx(0.60)


def test_adjacency_edges_do_not_fade(store: Store, namespace: str) -> None:
    a, b, c = (add_memory(store, namespace) for _ in range(3))
    long_ago = iso(NOW - timedelta(days=400))
    add_edge(store, a, b, kind="adjacent", created_at=long_ago, last_reinforced_at=long_ago)
    add_edge(store, b, c, kind="co_use", created_at=long_ago, last_reinforced_at=long_ago)
    run(store, "edges", namespace)
    e = edges(store, namespace)
    assert e[(a, b)]["confidence"] == 1.0  # structure: one turn followed the other
    assert e[(b, c)]["confidence"] == pytest.approx(0.1)  # learned from use, unused: the floor


def test_pagerank_job_matches_networkx_and_ignores_weak_edges(store: Store, namespace: str) -> None:
    rng = np.random.default_rng(7)
    ids = [add_memory(store, namespace) for _ in range(12)]
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    for i in range(12):  # a ring (no dangling nodes) plus random chords
        pairs = [(i, (i + 1) % 12), (i, int(rng.integers(12)))]
        for s, t in pairs:
            if s == t or graph.has_edge(ids[s], ids[t]):
                continue
            weight, confidence = float(rng.uniform(0.2, 1.0)), float(rng.uniform(0.3, 1.0))
            add_edge(store, ids[s], ids[t], weight=weight, confidence=confidence)
            graph.add_edge(ids[s], ids[t], weight=weight * confidence)
    add_edge(store, ids[0], ids[6], weight=1.0, confidence=0.1)  # under the recall floor
    config = JobsConfig(pagerank=PageRankConfig(max_iterations=1000, tolerance=0.0))
    result = run(store, "pagerank", namespace, config)
    assert result.counts["in_process"] == 1 and result.counts["edges"] == graph.number_of_edges()
    expected = nx.pagerank(graph, alpha=0.85, weight="weight", tol=1e-14, max_iter=10_000)
    top = max(expected.values())
    props = memory_props(store, namespace)
    for memory_id in ids:
        assert props[memory_id]["importance"] == pytest.approx(expected[memory_id] / top, abs=1e-9)
        # No dangling nodes: GDS scores are networkx's times the node count.
        assert props[memory_id]["pagerank"] == pytest.approx(expected[memory_id] * 12, rel=1e-9)
    assert max(p["importance"] for p in props.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("name", ["decay", "pagerank", "edges"])
def test_a_job_killed_mid_run_is_completed_by_the_next(store: Store, name: str) -> None:
    """Two identical namespaces: one run uninterrupted, one killed after its first batch and
    rerun; both end in the same state."""
    rng = np.random.default_rng(3)
    spec = [
        {
            "created_at": iso(NOW - timedelta(days=int(rng.integers(1, 60)))),
            "initial_confidence": float(rng.uniform(0.2, 1.0)),
            "access_count": int(rng.integers(0, 5)),
        }
        for _ in range(9)
    ]
    links = [
        (i, (i + 1) % 9, float(rng.uniform(0.3, 1.0)), int(rng.integers(10, 90))) for i in range(9)
    ]
    states = []
    namespaces = [f"test-kill-{uuid.uuid4().hex[:8]}" for _ in range(2)]
    try:
        for n, namespace in enumerate(namespaces):
            ids = [add_memory(store, namespace, content=f"m{i}", **s) for i, s in enumerate(spec)]
            for s, t, conf, age in links:
                stamp = iso(NOW - timedelta(days=age))
                add_edge(store, ids[s], ids[t], confidence=conf, last_reinforced_at=stamp)
            config = JobsConfig(settings=Settings().with_(job_batch_size=2))
            if n == 1:

                def killed(batch: int) -> None:
                    raise RuntimeError("worker killed")

                failed = run(store, name, namespace, config, after_batch=killed)
                assert failed.status == "failed" and failed.done == 2
                resumed = registry.run_job(store, name, config, RunOptions(namespace=namespace))
                assert resumed.status == "succeeded" and resumed.resumed_from == failed.id
            else:
                assert run(store, name, namespace, config).status == "succeeded"
            states.append(_snapshot(store, namespace))
        assert states[0] == states[1]
    finally:
        for namespace in namespaces:
            _wipe(store, namespace)


def _wipe(store: Store, namespace: str) -> None:
    """Remove what a test's own namespace left: clusters, memories (with edges), job runs."""
    for statement in (
        "MATCH (c:Cluster) WHERE c.namespace = $ns DETACH DELETE c",
        "MATCH (m:Memory) WHERE m.namespace = $ns DETACH DELETE m",
        "MATCH (r:JobRun) WHERE r.scope = $ns DELETE r",
    ):
        store.driver.execute_query(statement, ns=namespace, database_=store.database)


def _snapshot(store: Store, namespace: str) -> tuple[object, ...]:
    props = memory_props(store, namespace)
    content = {k: v["content"] for k, v in props.items()}
    nodes = sorted(
        (v["content"], v["status"], round(v["confidence"], 12), round(v.get("importance", -1), 12))
        for v in props.values()
    )
    links = sorted(
        (content[a], content[b], round(p["confidence"], 12))
        for (a, b), p in edges(store, namespace).items()
    )
    return tuple(nodes), tuple(links)


TOPICS = ["hiking trail mountain", "coffee espresso roast", "python typing mypy"]


def _three_topics(store: Store, namespace: str) -> tuple[np.ndarray, dict[str, str]]:
    """12 memories around each of three random centres; returns the centres and content -> id."""
    rng = np.random.default_rng(11)
    centres = rng.standard_normal((3, 384))
    ids = {}
    for k in range(3):
        for i in range(12):
            vector = centres[k] + 0.05 * rng.standard_normal(384)
            vector /= np.linalg.norm(vector)
            content = f"{TOPICS[k]} note {i}"
            ids[content] = add_memory(store, namespace, content=content, embedding=vector.tolist())
    return centres, ids


def _membership(store: Store, namespace: str) -> list[tuple[str, str, str, str | None]]:
    """Every IN_CLUSTER edge of the namespace: (content, cluster id, generation, created in)."""
    rows = store.driver.execute_query(
        "MATCH (m:Memory)-[r:IN_CLUSTER]->(c:Cluster) WHERE c.namespace = $ns "
        "RETURN m.content AS content, c.id AS cluster, r.generation AS generation, "
        "r.first_generation AS created",
        ns=namespace,
        database_=store.database,
    ).records
    return sorted((r["content"], r["cluster"], r["generation"], r["created"]) for r in rows)


def test_cluster_job_writes_clusters_and_keeps_ids_stable(store: Store, namespace: str) -> None:
    _three_topics(store, namespace)
    topics = TOPICS
    config = JobsConfig(cluster=replace(JobsConfig().cluster, min_cluster_size=5))
    first = run(store, "cluster", namespace, config)
    assert first.status == "succeeded" and first.counts["clusters"] == 3
    rows = store.driver.execute_query(
        "MATCH (m:Memory)-[r:IN_CLUSTER]->(c:Cluster) WHERE c.namespace = $ns "
        "RETURN c.id AS id, c.label AS label, c.size AS size, count(m) AS members, "
        "min(r.score) AS score",
        ns=namespace,
        database_=store.database,
    ).records
    assert sorted(r["members"] for r in rows) == [12, 12, 12]
    assert all(r["size"] == 12 and r["score"] > 0.5 for r in rows)
    assert {r["label"].split(" · ")[0] for r in rows} <= {w for t in topics for w in t.split()} | {
        "note"
    }
    ids = {r["id"] for r in rows}
    second = registry.run_job(
        store, "cluster", config, RunOptions(namespace=namespace, as_of=NOW + timedelta(hours=1))
    )
    assert second.status == "succeeded"
    after = store.driver.execute_query(
        "MATCH (m:Memory)-[r:IN_CLUSTER]->(c:Cluster) WHERE c.namespace = $ns "
        "RETURN c.id AS id, count(r) AS members",
        ns=namespace,
        database_=store.database,
    ).records
    assert {r["id"] for r in after} == ids and all(r["members"] == 12 for r in after)


def test_cluster_job_killed_mid_run_resumes_to_the_same_membership(store: Store) -> None:
    """Second generation: four memories move to another topic. One namespace runs it straight
    through, its twin is killed after the first batch of memberships and rerun. Both end with
    one edge per memory, the same clusters, stayers' edges kept (created in the first
    generation) and movers' edges new."""
    config = JobsConfig(
        cluster=replace(JobsConfig().cluster, min_cluster_size=5),
        settings=Settings().with_(job_batch_size=5),
    )
    later = NOW + timedelta(hours=1)
    namespaces = [f"test-cluster-kill-{uuid.uuid4().hex[:8]}" for _ in range(2)]
    results = []
    try:
        for n, namespace in enumerate(namespaces):
            centres, ids = _three_topics(store, namespace)
            assert run(store, "cluster", namespace, config).status == "succeeded"
            first = {content: cluster for content, cluster, _, _ in _membership(store, namespace)}
            movers = [f"{TOPICS[0]} note {i}" for i in range(4)]
            for content in movers:
                vector = centres[1] / np.linalg.norm(centres[1])
                store.driver.execute_query(
                    "MATCH (m:Memory {id: $id}) SET m.embedding = $e",
                    id=ids[content],
                    e=vector.tolist(),
                    database_=store.database,
                )
            options = RunOptions(namespace=namespace, as_of=later)
            if n == 1:

                def killed(batch: int) -> None:
                    raise RuntimeError("worker killed")

                failed = registry.run_job(
                    store, "cluster", config, replace(options, after_batch=killed)
                )
                assert failed.status == "failed"
                resumed = registry.run_job(store, "cluster", config, options)
                assert resumed.status == "succeeded" and resumed.resumed_from == failed.id
            else:
                assert registry.run_job(store, "cluster", config, options).status == "succeeded"
            after = _membership(store, namespace)
            assert len(after) == 36 and len({content for content, *_ in after}) == 36
            second = {content: cluster for content, cluster, _, _ in after}
            target = first[f"{TOPICS[1]} note 0"]
            assert all(second[content] == target for content in movers)
            stayers = [c for c in first if c not in movers]
            assert all(second[c] == first[c] for c in stayers), "cluster ids are kept"
            gen1, gen2 = iso(NOW), iso(later)
            created = {content: made for content, _, _, made in after}
            assert {created[c] for c in stayers} == {gen1}
            assert {created[c] for c in movers} == {gen2}
            assert {generation for _, _, generation, _ in after} == {gen2}
            results.append(sorted((content, made) for content, _, _, made in after))
        assert results[0] == results[1]
    finally:
        for namespace in namespaces:
            _wipe(store, namespace)
