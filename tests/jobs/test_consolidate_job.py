"""The consolidation job as the worker runs it: aged turns are extracted, then the gated
consolidation runs, and the JobRun records what happened."""

from __future__ import annotations

from hippograph.graph.runtime import Runtime
from hippograph.graph.write import episodes
from hippograph.jobs import registry
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import RunOptions
from tests.graph.log_fixtures import active, turn


def test_job_extracts_aged_turns_then_consolidates(runtime: Runtime, namespace: str) -> None:
    # Low-signal turns wait in the buffer for more turns or for their age.
    turns = [
        turn("s1", 0, "We drove to the coast and the weather was lovely."),
        turn("s1", 1, "My sister Ines lives in Porto with her two cats."),
    ]
    waiting = episodes.ingest(
        runtime.store, runtime.embedder, namespace, turns, policy=runtime.policy
    )
    assert waiting.pending_turns == 2 and not active(runtime, namespace)

    patient = runtime.settings.with_(extract_max_age_s=3600.0)
    options = RunOptions(trigger="test", namespace=namespace)
    run = registry.run_job(runtime.store, "consolidate", JobsConfig.from_settings(patient), options)
    assert run.status == "succeeded" and "turns_extracted" not in run.counts
    assert run.counts.get("skipped_gate") == 1  # nothing new to consolidate

    due = runtime.settings.with_(
        extract_max_age_s=0.0, consolidate_min_new_facts=1, consolidate_min_interval_s=0.0
    )
    run = registry.run_job(runtime.store, "consolidate", JobsConfig.from_settings(due), options)
    assert run.status == "succeeded", run.error
    assert run.counts["turns_extracted"] == 2 and run.counts["turns_waiting"] == 0
    assert "skipped_gate" not in run.counts
    contents = " ".join(m.content for m in active(runtime, namespace))
    assert "Porto" in contents
    assert not episodes.pending(runtime.store, namespace)
