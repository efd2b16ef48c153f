"""From runs to experience: a finished run is distilled into memories (the path that worked, a
procedure; each failed route, a negative memory triggered by the task's key words) that a
later similar task's recall and context bundle bring back; the same path succeeding again
reinforces its procedure, failing on it weakens it; the configured LLM may write the lesson,
validated, with the offline rules as the fallback."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from hippograph.graph import memories
from hippograph.graph.models.llm import ChatClient, LLMConfig
from hippograph.graph.recall.bundle import ContextRequest
from hippograph.graph.runs import distil, read, record
from hippograph.graph.runs.experience import finish
from hippograph.graph.runtime import Runtime
from tests.graph.llm_server import Endpoint, serve

TASK = "Convert the quarterly report PDF to an editable DOCX"


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    yield from serve()


def _failed_run(rt: Runtime, ns: str, task: str = TASK) -> str:
    run = record.start(rt.store, rt.embedder, ns, task, session="s1")
    record.add_step(rt.store, ns, run.id, thought="The PDF has text", action="extract text")
    record.add_tool_call(rt.store, ns, run.id, "pdftotext", arguments={"file": "report.pdf"},
                         status="failure", error="the tables come out as garbled text")  # fmt: skip
    return run.id


def _working_run(rt: Runtime, ns: str, task: str = TASK, *, fail_last: bool = False) -> str:
    run = record.start(rt.store, rt.embedder, ns, task, session="s2")
    record.add_step(rt.store, ns, run.id, action="ocr")
    record.add_tool_call(rt.store, ns, run.id, "ocrmypdf", arguments={"file": "report.pdf"},
                         status="timeout", error="took longer than 30 s")  # fmt: skip
    record.add_tool_call(rt.store, ns, run.id, "ocrmypdf", arguments={"file": "report.pdf"},
                         status="success", duration_ms=4200)  # fmt: skip
    record.add_step(rt.store, ns, run.id, thought="thinking only")
    record.add_step(rt.store, ns, run.id, action="convert")
    record.add_tool_call(rt.store, ns, run.id, "pandoc", arguments={"to": "docx"},
                         status="failure" if fail_last else "success",
                         error="pandoc crashed on the images" if fail_last else None)  # fmt: skip
    return run.id


def test_the_offline_lesson_keeps_the_path_that_worked(runtime: Runtime, namespace: str) -> None:
    rt = runtime
    run_id = _working_run(rt, namespace)
    run = read.get(rt.store, namespace, run_id)
    assert run is not None
    lesson = distil.offline(run)
    assert lesson.goal == TASK and lesson.success is False  # not finished yet
    from dataclasses import replace

    lesson = distil.offline(replace(run, success=True))
    assert lesson.steps == ("ocr (ocrmypdf(file=report.pdf))", "convert (pandoc(to=docx))")
    assert [(f.tool, f.cause) for f in lesson.failures] == [("ocrmypdf", "took longer than 30 s")]
    assert lesson.recovered == ("ocrmypdf",)
    assert lesson.applies_when == ("convert", "quarterly", "report", "pdf", "editable", "docx")
    assert distil.trigger_patterns(lesson.applies_when)[0] == "convert quarterly"
    assert lesson.path_key is not None and lesson.path_key == lesson.route_key


def test_a_failure_then_a_success_come_back_for_a_similar_task(
    runtime: Runtime, namespace: str
) -> None:
    rt = runtime
    failed = finish(rt.store, rt.embedder, namespace, _failed_run(rt, namespace), success=False,
                    outcome="the tables were lost", policy=rt.policy)  # fmt: skip
    assert [(e.kind, e.action) for e in failed.experience] == [("warning", "ADD")]
    warning = memories.get(rt.store, namespace, failed.experience[0].memory_id)
    assert warning.memory_type == "negative" and "pdftotext" in warning.content
    assert "report pdf" in warning.trigger_patterns and "warning" in warning.tags

    worked = finish(rt.store, rt.embedder, namespace, _working_run(rt, namespace), success=True,
                    policy=rt.policy)  # fmt: skip
    assert [(e.kind, e.action) for e in worked.experience] == [("experience", "ADD")]
    path = memories.get(rt.store, namespace, worked.experience[0].memory_id)
    assert path.memory_type == "procedure" and path.provenance == "observed"
    assert path.steps == ("ocr (ocrmypdf(file=report.pdf))", "convert (pandoc(to=docx))")
    assert path.warnings == ("ocrmypdf(file=report.pdf) failed: took longer than 30 s "
                             "(a retry worked)",)  # fmt: skip
    again = read.get(rt.store, namespace, worked.run.id)
    assert again is not None and again.experience == (path.id,)

    later = "Convert the annual report PDF into a DOCX for the board"
    bundle = rt.context_bundle(namespace, ContextRequest(context=later, budget=800))
    assert "ocrmypdf" in bundle.text and "pandoc" in bundle.text  # the working path
    assert "pdftotext" in bundle.text  # the failed route, as a warning
    ids = {item.id for item in bundle.items}
    assert {path.id, warning.id} <= ids
    similar = read.similar(rt.store, rt.embedder, namespace, later, success=True)
    assert similar[0].run.id == worked.run.id


def test_the_same_path_again_reinforces_and_failing_on_it_weakens(
    runtime: Runtime, namespace: str
) -> None:
    rt = runtime
    first = finish(rt.store, rt.embedder, namespace, _working_run(rt, namespace), success=True)
    procedure_id = first.experience[0].memory_id
    before = memories.get(rt.store, namespace, procedure_id)
    again = finish(rt.store, rt.embedder, namespace,
                   _working_run(rt, namespace, "Convert the monthly report PDF to DOCX"),
                   success=True)  # fmt: skip
    assert [(e.memory_id, e.action) for e in again.experience] == [(procedure_id, "NOOP")]
    reinforced = memories.get(rt.store, namespace, procedure_id)
    assert reinforced.strength == before.strength + 1
    unrelated = finish(rt.store, rt.embedder, namespace,
                       _working_run(rt, namespace, "Bake a sourdough loaf with rye flour"),
                       success=True)  # fmt: skip
    assert unrelated.experience[0].memory_id != procedure_id  # same tools, another task

    broke = finish(rt.store, rt.embedder, namespace,
                   _working_run(rt, namespace, "Convert the yearly report PDF to DOCX",
                                fail_last=True), success=False)  # fmt: skip
    weakened = [e for e in broke.experience if e.action == "WEAKEN"]
    assert [e.memory_id for e in weakened] == [procedure_id]
    after = memories.get(rt.store, namespace, procedure_id)
    assert after.confidence < reinforced.confidence
    warning = [e for e in broke.experience if e.kind == "warning"]
    assert len(warning) == 1 and "pandoc crashed" in warning[0].content


def test_the_llm_writes_the_lesson_and_a_bad_answer_falls_back(
    runtime: Runtime, namespace: str, endpoint: Endpoint
) -> None:
    rt = runtime
    lesson = {"goal": "Turn a scanned report into an editable Word file",
              "steps": ["OCR the PDF with ocrmypdf", "convert it with pandoc to docx"],
              "failures": [{"route": "ocrmypdf without a longer timeout",
                            "cause": "it times out on long scans"}],
              "applies_when": ["scanned pdf", "word output"]}  # fmt: skip
    endpoint.script = [json.dumps(lesson), json.dumps({**lesson, "extra": 1}), "not json"]
    with ChatClient(LLMConfig(base_url=endpoint.url, model="m")) as llm:
        told = finish(rt.store, rt.embedder, namespace, _working_run(rt, namespace),
                      success=True, llm=llm)  # fmt: skip
        assert told.distiller == "llm"
        made = memories.get(rt.store, namespace, told.experience[0].memory_id)
        assert made.steps == tuple(lesson["steps"])
        assert made.content.startswith("Turn a scanned report into an editable Word file")
        assert "Applies when: scanned pdf, word output" in made.content
        rendered = endpoint.requests[0][2]["messages"][1]["content"]
        assert "call pandoc(to=docx) -> success" in rendered
        for _ in range(2):
            fell_back = finish(rt.store, rt.embedder, namespace,
                               _failed_run(rt, namespace, "Summarise the Q3 sales PDF report"),
                               success=False, llm=llm)  # fmt: skip
            assert fell_back.distiller == "rules"
