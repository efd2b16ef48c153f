"""``serve`` runs the maintenance jobs on a thread of its own over the server's store, by
default (HIPPOGRAPH_SERVE_JOBS, serve --no-jobs), and leaves that store open when it stops."""

from __future__ import annotations

import threading

from hippograph.api.cli import build_parser
from hippograph.graph.runtime import Runtime
from hippograph.graph.upkeep.jobruns import JobRun
from hippograph.jobs.background import BackgroundJobs
from hippograph.jobs.config import JOB_NAMES, JobsConfig
from hippograph.settings import Settings


def test_serve_runs_the_jobs_unless_told_not_to() -> None:
    assert Settings.from_env({}).server.jobs is True
    assert Settings.from_env({"HIPPOGRAPH_SERVE_JOBS": "0"}).server.jobs is False
    assert build_parser().parse_args(["serve", "--no-jobs"]).no_jobs is True
    assert build_parser().parse_args(["serve"]).no_jobs is False


def test_the_in_process_jobs_run_due_jobs_and_leave_the_store_open(runtime: Runtime) -> None:
    # Only the vocabulary job is scheduled: the others would scan the whole suite's store. It is
    # due within a second whenever it last ran: earlier tests of the suite may have run it.
    off = {f"job_{name}_interval_s": 0.0 for name in JOB_NAMES if name != "vocabulary"}
    config = JobsConfig.from_settings(
        runtime.settings.with_(**off, job_vocabulary_interval_s=1.0)
    )
    runs: list[JobRun] = []
    ran = threading.Event()

    def on_run(run: JobRun) -> None:
        runs.append(run)
        ran.set()

    jobs = BackgroundJobs(runtime.store, config, on_run=on_run).start()
    try:
        assert ran.wait(60), "no job ran within a minute"
    finally:
        assert jobs.stop(30)
    assert [r.name for r in runs] == ["vocabulary"]
    assert runs[0].status == "succeeded", runs[0].error
    runtime.store.ping()  # borrowed, not closed
