"""Contract: a run is written as the agent works (start, steps, tool calls, finish) and read
back whole, on each backend; bad input names its field and writes nothing; an idle run is
closed on read; tool statistics and similar runs answer from what was recorded."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest

from hippograph.graph import clock
from hippograph.graph.errors import Conflict, InvalidInput, NotFound, SecretRejected
from hippograph.graph.runs import bounds, read, record
from hippograph.graph.runs.experience import finish
from hippograph.graph.runtime import Runtime

GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def _filter(rt: Runtime) -> bounds.Filter | None:
    return rt.policy.content_filter


def test_a_run_is_recorded_step_by_step_and_read_back_whole(
    any_runtime: Runtime, namespace: str
) -> None:
    rt = any_runtime
    run = record.start(rt.store, rt.embedder, namespace, "Convert report.pdf to DOCX",
                       session="s1", agent="writer")  # fmt: skip
    assert (run.task, run.session, run.agent, run.status) == (
        "Convert report.pdf to DOCX", "s1", "writer", "running",
    )  # fmt: skip
    assert run.ended is None and run.success is None and run.step_count == 0
    first = record.add_step(rt.store, namespace, run.id, thought="Extract the text first",
                            action="extract")  # fmt: skip
    call = record.add_tool_call(rt.store, namespace, run.id, "pdftotext",
                                arguments={"file": "report.pdf"}, status="running")  # fmt: skip
    assert (call.step, call.seq, call.status, call.arguments) == (
        1, 1, "running", {"file": "report.pdf"},
    )  # fmt: skip
    failed = record.update_tool_call(rt.store, namespace, call.id, status="failure",
                                     error="tables lost", duration_ms=120)  # fmt: skip
    assert (failed.status, failed.error, failed.duration_ms) == ("failure", "tables lost", 120)
    second = record.add_step(rt.store, namespace, run.id, action="ocr",
                             observation="OCR keeps the tables")  # fmt: skip
    assert (first.n, second.n) == (1, 2)
    record.add_tool_call(rt.store, namespace, run.id, "ocrmypdf", arguments={"file": "report.pdf"},
                         result={"pages": 3}, status="success", duration_ms=900)  # fmt: skip
    record.add_tool_call(rt.store, namespace, run.id, "pandoc", step=2, arguments=["-o", "r.docx"],
                         status="SUCCESS", duration_ms=80.4)  # fmt: skip
    done = finish(rt.store, rt.embedder, namespace, run.id, success=True, outcome="r.docx made")
    assert done.run.success is True and done.run.ended is not None

    whole = read.get(rt.store, namespace, run.id)
    assert whole is not None
    assert (whole.status, whole.outcome, whole.step_count, whole.call_count) == (
        "finished", "r.docx made", 2, 3,
    )  # fmt: skip
    assert [s.n for s in whole.steps] == [1, 2]
    assert whole.steps[0].thought == "Extract the text first"
    assert whole.steps[1].observation == "OCR keeps the tables"
    assert [[c.tool for c in s.tool_calls] for s in whole.steps] == [
        ["pdftotext"], ["ocrmypdf", "pandoc"],
    ]  # fmt: skip
    pandoc = whole.steps[1].tool_calls[1]
    assert (pandoc.arguments, pandoc.status, pandoc.duration_ms) == (
        ["-o", "r.docx"],
        "success",
        80,
    )
    assert whole.steps[1].tool_calls[0].result == {"pages": 3}
    assert set(whole.experience) == {e.memory_id for e in done.experience}
    assert read.get(rt.store, namespace, "00000000-0000-4000-8000-000000000000") is None


def test_a_call_before_any_step_opens_one(any_runtime: Runtime, namespace: str) -> None:
    rt = any_runtime
    run = record.start(rt.store, rt.embedder, namespace, "Look up the weather in Oslo")
    call = record.add_tool_call(rt.store, namespace, run.id, "weather", arguments={"city": "Oslo"},
                                status="success")  # fmt: skip
    assert (call.step, call.seq) == (1, 1)
    whole = read.get(rt.store, namespace, run.id)
    assert whole is not None and whole.steps[0].action == "weather"
    assert whole.steps[0].tool_calls[0].arguments == {"city": "Oslo"}


def test_bad_input_names_the_field_and_writes_nothing(any_runtime: Runtime, namespace: str) -> None:
    rt = any_runtime
    with pytest.raises(InvalidInput) as caught:
        record.start(rt.store, rt.embedder, namespace, "x" * 2001)
    assert caught.value.field == "task" and caught.value.limit == 2000
    assert read.runs(rt.store, namespace) == []
    run = record.start(rt.store, rt.embedder, namespace, "Deploy the docs")
    with pytest.raises(InvalidInput) as caught:
        record.add_step(rt.store, namespace, run.id)
    assert caught.value.field == "thought"
    record.add_step(rt.store, namespace, run.id, action="build")
    for kwargs, field in (
        ({"status": "exploded"}, "status"),
        ({"duration_ms": -1}, "durationMs"),
        ({"step": 0}, "step"),
        ({"arguments": {"x": float("nan")}}, "arguments"),
    ):
        with pytest.raises(InvalidInput) as caught:
            record.add_tool_call(rt.store, namespace, run.id, "make", **kwargs)  # type: ignore[arg-type]
        assert caught.value.field == field
    with pytest.raises(InvalidInput) as caught:
        record.add_tool_call(rt.store, namespace, run.id, "bad\ntool")
    assert caught.value.field == "tool"
    with pytest.raises(NotFound) as missing:
        record.add_tool_call(rt.store, namespace, run.id, "make", step=7)
    assert missing.value.field == "step"
    with pytest.raises(NotFound):
        record.add_step(rt.store, "other-ns", run.id, action="build")  # another namespace's run
    whole = read.get(rt.store, namespace, run.id)
    assert whole is not None and whole.call_count == 0 and whole.step_count == 1
    finish(rt.store, rt.embedder, namespace, run.id, success=False)
    with pytest.raises(Conflict):
        record.add_step(rt.store, namespace, run.id, action="again")
    with pytest.raises(Conflict):
        finish(rt.store, rt.embedder, namespace, run.id, success=True)


def test_large_values_are_summarised_and_secrets_redacted(
    any_runtime: Runtime, namespace: str
) -> None:
    rt = any_runtime
    flt = _filter(rt)
    run = record.start(rt.store, rt.embedder, namespace, "Fetch the release notes",
                       content_filter=flt)  # fmt: skip
    record.add_step(rt.store, namespace, run.id, thought=f"use token {GITHUB_TOKEN}",
                    observation="y" * 10_000, content_filter=flt)  # fmt: skip
    big = {"body": "z" * 50_000, "token": GITHUB_TOKEN}
    call = record.add_tool_call(rt.store, namespace, run.id, "http_get",
                                arguments={"auth": GITHUB_TOKEN}, result=big, status="success",
                                error="e" * 5000, content_filter=flt)  # fmt: skip
    assert GITHUB_TOKEN not in json.dumps(call.arguments)
    summary = call.result["truncated"]
    assert summary["chars"] > 50_000 and "body" in summary["shape"]
    assert len(summary["head"]) == bounds.HEAD_CHARS and GITHUB_TOKEN not in summary["head"]
    assert call.error is not None and call.error.endswith("[... truncated: 1000 more characters]")
    whole = read.get(rt.store, namespace, run.id)
    assert whole is not None
    step = whole.steps[0]
    assert step.thought is not None and GITHUB_TOKEN not in step.thought
    assert step.observation is not None and len(step.observation) < 4100
    assert "truncated: 6000 more characters" in step.observation
    strict = rt.settings.with_(privacy_mode="reject")
    from hippograph.graph.runtime import write_policy

    reject = write_policy(strict).content_filter
    with pytest.raises(SecretRejected):
        record.add_step(rt.store, namespace, run.id, thought=GITHUB_TOKEN, content_filter=reject)
    assert read.get(rt.store, namespace, run.id).step_count == 1  # type: ignore[union-attr]


def test_an_idle_run_is_closed_as_abandoned_when_read(any_runtime: Runtime, namespace: str) -> None:
    rt = any_runtime
    run = record.start(rt.store, rt.embedder, namespace, "Rotate the logs")
    call = record.add_tool_call(rt.store, namespace, run.id, "logrotate", status="running")
    live = record.start(rt.store, rt.embedder, namespace, "Rotate the keys")
    clock.set_now(clock.now() + timedelta(hours=2))
    record.add_step(rt.store, namespace, live.id, action="still working")
    listed = {r.id: r for r in read.runs(rt.store, namespace)}
    assert listed[run.id].status == "abandoned" and listed[run.id].success is False
    assert listed[run.id].outcome is not None and "abandoned" in listed[run.id].outcome
    assert listed[live.id].status == "running"
    whole = read.get(rt.store, namespace, run.id)
    assert whole is not None
    timed_out = whole.steps[0].tool_calls[0]
    assert (timed_out.id, timed_out.status) == (call.id, "timeout")
    with pytest.raises(Conflict):
        record.update_tool_call(rt.store, namespace, call.id, status="success")


def test_tool_stats_count_calls_outcomes_durations_and_errors(
    any_runtime: Runtime, namespace: str
) -> None:
    rt = any_runtime
    run = record.start(rt.store, rt.embedder, namespace, "Search for Alice")
    record.add_step(rt.store, namespace, run.id, action="search")
    for status, ms, error in (("success", 100, None), ("success", 200, None),
                              ("failure", None, "not found"), ("timeout", 3000, "not found"),
                              ("error", 50, "HTTP 500"), ("pending", None, None)):  # fmt: skip
        record.add_tool_call(rt.store, namespace, run.id, "search_entities", status=status,
                             duration_ms=ms, error=error)  # fmt: skip
    record.add_tool_call(rt.store, namespace, run.id, "lookup", status="success")
    stats = {s.tool: s for s in read.tool_stats(rt.store, namespace)}
    search = stats["search_entities"]
    assert (search.calls, search.successes, search.failures) == (6, 2, 3)
    assert search.success_rate == pytest.approx(2 / 5)
    assert search.mean_duration_ms == pytest.approx((100 + 200 + 3000 + 50) / 4)
    assert [(e.error, e.count) for e in search.common_errors] == [("not found", 2), ("HTTP 500", 1)]
    assert (stats["lookup"].calls, stats["lookup"].success_rate) == (1, 1.0)
    only = read.tool_stats(rt.store, namespace, "lookup")
    assert [s.tool for s in only] == ["lookup"]
    assert read.tool_stats(rt.store, namespace, "never_called") == []


def test_similar_runs_rank_by_task(any_runtime: Runtime, namespace: str) -> None:
    rt = any_runtime
    assert read.similar(rt.store, rt.embedder, namespace, "anything") == []
    pdf = record.start(rt.store, rt.embedder, namespace, "Convert the scanned invoice PDF to Word")
    record.start(rt.store, rt.embedder, namespace, "Book a table for two in Lisbon")
    record.start(rt.store, rt.embedder, namespace, "Water the garden on Sunday")
    found = read.similar(rt.store, rt.embedder, namespace, "turn a scanned PDF into a DOCX", k=2)
    assert len(found) == 2 and found[0].run.id == pdf.id
    assert found[0].score > found[1].score
    finish(rt.store, rt.embedder, namespace, pdf.id, success=False)
    failed = read.similar(rt.store, rt.embedder, namespace, "PDF to Word", success=False)
    assert [s.run.id for s in failed] == [pdf.id]
    assert read.similar(rt.store, rt.embedder, namespace, "PDF to Word", success=True) == []


def test_concurrent_steps_of_one_run_get_distinct_numbers(runtime: Runtime, namespace: str) -> None:
    rt = runtime
    run = record.start(rt.store, rt.embedder, namespace, "Crawl the docs")
    numbers: list[int] = []
    lock = threading.Lock()

    def writer(i: int) -> None:
        for j in range(5):
            step = record.add_step(rt.store, namespace, run.id, action=f"page {i}-{j}")
            with lock:
                numbers.append(step.n)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(numbers) == list(range(1, 41))
    whole = read.get(rt.store, namespace, run.id)
    assert whole is not None and [s.n for s in whole.steps] == list(range(1, 41))


def test_concurrent_tool_calls_of_one_run_are_all_kept_in_order(
    runtime: Runtime, namespace: str
) -> None:
    """Eight writers log calls on one run at once: every acknowledged call is stored, on the
    run's latest step, with a distinct place among the run's calls."""
    rt = runtime
    run = record.start(rt.store, rt.embedder, namespace, "Crawl the docs")
    record.add_step(rt.store, namespace, run.id, action="fetch the pages")
    acknowledged: list[tuple[str, int]] = []
    lock = threading.Lock()

    def writer(i: int) -> None:
        for j in range(5):
            call = record.add_tool_call(rt.store, namespace, run.id, "fetch",
                                        arguments={"page": f"{i}-{j}"})  # fmt: skip
            with lock:
                acknowledged.append((call.id, call.seq))

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seq for _, seq in acknowledged) == list(range(1, 41))
    whole = read.get(rt.store, namespace, run.id)
    assert whole is not None and [s.n for s in whole.steps] == [1]
    stored = whole.steps[0].tool_calls
    assert {(c.id, c.seq) for c in stored} == set(acknowledged)
    assert [c.seq for c in stored] == list(range(1, 41)) and whole.call_count == 40
