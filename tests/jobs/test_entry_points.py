"""The CLI commands and the GraphQL fields, attached to the session's embedded engine."""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Iterator

import pytest

from hippograph.api import cli_jobs
from hippograph.api.schema import schema
from hippograph.graph.recall import feedback
from hippograph.graph.runtime import Runtime
from hippograph.graph.upkeep import jobruns
from tests.jobs.conftest import add_memory, memory_props


@pytest.fixture
def all_scope_runs(runtime: Runtime) -> Iterator[None]:
    """Runs over every namespace (scope '*') this test makes are deleted afterwards."""
    before = {r.id for r in jobruns.list_runs(runtime.store, None, 500)}
    yield
    for run in jobruns.list_runs(runtime.store, None, 500):
        if run.id not in before and run.scope == jobruns.ALL_SCOPE:
            runtime.store.driver.execute_query(
                "MATCH (r:JobRun {id: $id}) DELETE r", id=run.id, database_=runtime.store.database
            )


def test_jobs_run_command_attaches_and_reports(
    runtime: Runtime, namespace: str, capsys: pytest.CaptureFixture[str]
) -> None:
    m = add_memory(runtime.store, namespace, created_at="2020-01-01T00:00:00.000000Z")
    args = argparse.Namespace(name="decay", namespace=namespace, force=False)
    assert cli_jobs.cmd_jobs_run(args, runtime.settings) == 0
    out = capsys.readouterr().out
    assert out.startswith("decay succeeded") and '"updated": 1' in out
    assert memory_props(runtime.store, namespace)[m]["confidence"] < 0.01
    listing = argparse.Namespace(name="decay", first=5)
    assert cli_jobs.cmd_jobs_list(listing, runtime.settings) == 0
    assert "decay succeeded" in capsys.readouterr().out


def test_graphql_run_job_feedback_and_gaps(
    runtime: Runtime, namespace: str, all_scope_runs: None
) -> None:
    context = {"runtime": runtime}
    m = add_memory(runtime.store, namespace)
    feedback.log_gap(runtime.store, namespace, "what is the wifi password", 0.1)

    def execute(query: str) -> dict[str, object]:
        result = asyncio.run(schema.execute(query, context_value=context))
        assert result.errors is None, result.errors
        assert result.data is not None
        return result.data

    started = execute("mutation { runJob(name: PAGERANK) { id status } }")["runJob"]
    assert started["status"] == "RUNNING"  # type: ignore[index]
    for _ in range(100):
        run = jobruns.get_run(runtime.store, started["id"])  # type: ignore[index]
        if run is not None and run.status != "running":
            break
        time.sleep(0.1)
    assert run is not None and run.status == "succeeded"
    runs = execute("{ jobRuns(name: PAGERANK, first: 1) { id status counts } }")["jobRuns"]
    assert runs[0]["id"] == started["id"] and runs[0]["status"] == "SUCCEEDED"  # type: ignore[index]
    rated = execute(
        f'mutation {{ feedback(namespace: "{namespace}", memoryId: "{m}", helpful: true) '
        "{ memoryId confidence helpfulCount } }"
    )["feedback"]
    assert rated["helpfulCount"] == 1  # type: ignore[index]
    gaps = execute(f'{{ gaps(namespace: "{namespace}") {{ context count bestScore }} }}')["gaps"]
    assert gaps == [{"context": "what is the wifi password", "count": 1, "bestScore": 0.1}]
