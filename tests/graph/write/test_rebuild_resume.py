"""A rebuild that fails midway leaves its ``RebuildState`` marker; the next run (a rebuild, the
worker's consolidation job, ``rebuild.resume``) finishes it: every memory back, same ids."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from hippograph.graph.model import NewMemory
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import rebuild
from hippograph.jobs import registry
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import RunOptions
from tests.graph.log_fixtures import active, every, log_runtime, remember, turn
from tests.graph.write.test_rebuild import do_rebuild, ingest, states


@pytest.fixture
def rt(runtime: Runtime, namespace: str) -> Iterator[Runtime]:
    yield from log_runtime(runtime, namespace)


def _seed(rt: Runtime, ns: str) -> str:
    """Turns and remembers; returns the time of a point in the middle of the log."""
    ingest(rt, ns, turn("s1", 0, "I work at Google as an engineer."),
           turn("s1", 1, "I adopted a puppy named Max."))  # fmt: skip
    for i in range(4):
        remember(rt, ns, *(NewMemory(content=f"Person {i}-{j} enjoys chess club {j}")
                           for j in range(5)))  # fmt: skip
    middle = max(m.created_at for m in every(rt, ns))
    for i in range(4, 8):
        remember(rt, ns, NewMemory(content=f"Person {i} plays the cello on Sundays"))
    ingest(rt, ns, turn("s2", 0, "I moved to Lisbon last spring."))
    return middle


def _unreplayable_event(rt: Runtime, ns: str, at: str) -> None:
    """A RememberEvent this version cannot replay (an item field it does not know, as from a
    newer version or a damaged log), recorded between the others."""
    item = {"content": "written by a later version", "mood": "unknown field"}
    event = {"id": "unreplayable", "namespace": ns, "at": at, "items": [json.dumps(item)]}
    rt.store.driver.execute_query(
        "CREATE (r:RememberEvent) SET r = $event", event=event, database_=rt.store.database
    )


def _repair(rt: Runtime, ns: str) -> None:
    rt.store.driver.execute_query(
        "MATCH (r:RememberEvent {id: 'unreplayable'}) WHERE r.namespace = $ns DELETE r",
        ns=ns,
        database_=rt.store.database,
    )


def test_a_rebuild_that_fails_midway_is_finished_by_the_next(rt: Runtime, namespace: str) -> None:
    middle = _seed(rt, namespace)
    before = states(rt, namespace)
    _unreplayable_event(rt, namespace, middle)
    with pytest.raises(TypeError, match="mood"):
        do_rebuild(rt, namespace)
    left = rebuild.unfinished(rt.store)
    assert [u.namespace for u in left if u.namespace == namespace] == [namespace]
    partial = {m.id for m in active(rt, namespace)}
    assert 0 < len(partial) < sum(1 for _, status, _ in before.values() if status == "active")
    assert partial < set(before)  # what was replayed has its old ids already
    _repair(rt, namespace)
    done = rebuild.resume(rt.store, rt.embedder, policy=rt.policy, namespace=namespace)
    assert list(done) == [namespace]
    assert states(rt, namespace) == before
    assert namespace not in {u.namespace for u in rebuild.unfinished(rt.store)}
    assert rebuild.resume(rt.store, rt.embedder, policy=rt.policy, namespace=namespace) == {}


def test_the_consolidation_job_finishes_a_half_done_rebuild(rt: Runtime, namespace: str) -> None:
    middle = _seed(rt, namespace)
    before = states(rt, namespace)
    _unreplayable_event(rt, namespace, middle)
    with pytest.raises(TypeError):
        do_rebuild(rt, namespace)
    assert len(active(rt, namespace)) < len(before)
    _repair(rt, namespace)
    options = RunOptions(trigger="test", namespace=namespace)
    run = registry.run_job(rt.store, "consolidate", JobsConfig.from_settings(rt.settings), options)
    assert run.status == "succeeded", run.error
    assert run.counts["rebuilds_finished"] == 1
    assert states(rt, namespace) == before


def test_namespace_wide_jobs_skip_a_namespace_a_rebuild_left_half_done(
    rt: Runtime, namespace: str
) -> None:
    """Clusters, the core block and the profile are not derived from part of the memories:
    while a rebuild has not finished its replay, those jobs skip the namespace and say so."""
    middle = _seed(rt, namespace)
    _unreplayable_event(rt, namespace, middle)
    with pytest.raises(TypeError):
        do_rebuild(rt, namespace)
    config = JobsConfig.from_settings(rt.settings)
    options = RunOptions(trigger="test", namespace=namespace)
    clusters = "MATCH (c:Cluster) WHERE c.namespace = $ns RETURN count(c) AS n"

    def cluster_count() -> int:
        rows = rt.store.driver.execute_query(clusters, ns=namespace, database_=rt.store.database)
        return int(rows.records[0]["n"])

    for job in ("cluster", "core", "profile"):
        run = registry.run_job(rt.store, job, config, options)
        assert run.status == "succeeded", run.error
        assert run.counts["skipped_rebuilding"] == 1, job
        assert "memories" not in run.counts and "namespaces" not in run.counts, job
    assert cluster_count() == 0
    _repair(rt, namespace)
    rebuild.resume(rt.store, rt.embedder, policy=rt.policy, namespace=namespace)
    run = registry.run_job(rt.store, "cluster", config, options)
    assert run.status == "succeeded" and "skipped_rebuilding" not in run.counts
    assert run.counts["memories"] == len(active(rt, namespace))  # clustered now
