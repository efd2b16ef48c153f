"""The explorer's run view in headless Chromium: a run recorded through the API, with a tool
call that failed and one that worked, read back as a timeline, and the memories it taught
linked both ways."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS, PageRunner
from tests.browser.test_explore import gql

pytestmark = pytest.mark.slow

RED, GREEN = "rgb(179, 38, 30)", "rgb(46, 125, 50)"  # explore.css: failure, success


def record_run(base: str, ns: str) -> dict[str, Any]:
    """A document conversion that failed with pdftotext and worked through OCR, recorded the
    way an agent does (start, step, call, call's end, finish); returns the run's ids."""
    started = gql(base, """mutation($ns: String!) { startRun(namespace: $ns,
        task: "Convert the scanned invoice PDF to DOCX", sessionId: "s-42", agent: "clerk")
        { id } }""", ns=ns)["startRun"]["id"]  # fmt: skip
    step = """mutation($ns: String!, $run: ID!, $t: String, $a: String, $o: String) {
        addStep(namespace: $ns, runId: $run, thought: $t, action: $a, observation: $o) { n } }"""
    call = """mutation($ns: String!, $run: ID!, $tool: String!, $args: JSON,
        $status: ToolCallStatus!) { addToolCall(namespace: $ns, runId: $run, tool: $tool,
        arguments: $args, status: $status) { id } }"""  # fmt: skip
    end = """mutation($ns: String!, $id: ID!, $status: ToolCallStatus, $result: JSON, $ms: Float,
        $error: String) { updateToolCall(namespace: $ns, id: $id, status: $status, result: $result,
        durationMs: $ms, error: $error) { status } }"""  # fmt: skip
    gql(base, step, ns=ns, run=started, t="Try plain text extraction first",
        a="extract the text", o="the tables came out as loose words")  # fmt: skip
    failed = gql(base, call, ns=ns, run=started, tool="pdftotext",
                 args={"file": "invoice.pdf", "layout": True}, status="RUNNING")  # fmt: skip
    gql(base, end, ns=ns, id=failed["addToolCall"]["id"], status="FAILURE", ms=35,
        error="pdftotext lost the tables", result={"exit": 1})  # fmt: skip
    gql(base, step, ns=ns, run=started, t="A scan needs OCR", a="OCR the scan", o="tables kept")
    worked = gql(base, call, ns=ns, run=started, tool="ocrmypdf",
                 args={"file": "invoice.pdf", "lang": "eng"}, status="RUNNING")  # fmt: skip
    gql(base, end, ns=ns, id=worked["addToolCall"]["id"], status="SUCCESS", ms=900,
        result={"pages": 3, "out": "invoice.docx"})  # fmt: skip
    done = gql(base, """mutation($ns: String!, $run: ID!) { finishRun(namespace: $ns,
        runId: $run, success: true, outcome: "invoice.docx written") {
        experience { memoryId kind content } } }""", ns=ns, run=started)  # fmt: skip
    return {"id": started, "experience": done["finishRun"]["experience"]}


def test_a_run_is_shown_as_a_timeline_with_its_tool_calls_and_lessons(
    server_url: str, run_page: PageRunner
) -> None:
    ns = f"browser-{uuid.uuid4().hex[:8]}"
    recorded = record_run(server_url, ns)
    other = gql(server_url, """mutation($ns: String!) { startRun(namespace: $ns,
        task: "Convert the supplier's PDF invoice into Word") { id } }""", ns=ns)  # fmt: skip

    report = run_page("explore_runs", screenshot="explore-runs.png", url=f"{server_url}/explore",
                      namespace=ns, runId=recorded["id"])  # fmt: skip
    result = report["result"]
    assert [r["id"] for r in result["listed"]] == [other["startRun"]["id"], recorded["id"]]
    assert "Convert the scanned invoice PDF to DOCX" in result["listed"][1]["text"]
    view = result["view"]
    assert view["status"] == "ready" and view["wide"]
    assert (
        "Convert the scanned invoice PDF to DOCX" in view["title"] and "succeeded" in view["title"]
    )
    for shown in ("clerk", "s-42", "finished", "invoice.docx written", "2 (1 failed)"):
        assert shown in view["head"], shown

    first, second = view["timeline"]
    assert (first["n"], second["n"]) == (1, 2)
    assert first["hasFailure"] and not second["hasFailure"]
    assert first["thought"] == "thought: Try plain text extraction first"
    assert first["action"] == "action: extract the text"
    assert first["observation"] == "observation: the tables came out as loose words"
    [bad], [good] = first["calls"], second["calls"]
    assert (bad["tool"], bad["status"], bad["duration"]) == ("pdftotext", "failure", "35 ms")
    assert "failed" in bad["classes"] and bad["badge"].endswith("failure")
    assert (bad["border"], bad["badgeColour"]) == (RED, RED)
    assert bad["error"] == "error: pdftotext lost the tables"
    assert json.loads(bad["arguments"]) == {"file": "invoice.pdf", "layout": True}
    assert json.loads(bad["result"]) == {"exit": 1}
    assert (good["tool"], good["status"], good["duration"], good["error"]) == (
        "ocrmypdf", "success", "900 ms", None,
    )  # fmt: skip
    assert "failed" not in good["classes"] and (good["border"], good["badgeColour"]) == (
        GREEN,
        GREEN,
    )
    assert json.loads(good["result"]) == {"pages": 3, "out": "invoice.docx"}

    taught = {e["memoryId"]: e for e in recorded["experience"]}
    assert {x["id"] for x in view["lessons"]} == set(taught)
    for lesson in view["lessons"]:
        assert lesson["kind"] == taught[lesson["id"]]["kind"]
        assert taught[lesson["id"]]["content"] in lesson["text"]
    assert view["similar"] == [other["startRun"]["id"]]

    memory = result["memory"]
    assert memory["runs"] == [recorded["id"]] and not memory["wide"]
    warnings = [e["content"] for e in taught.values() if e["kind"] == "warning"]
    assert any(text in memory["title"] for text in warnings)
    assert result["back"] == {"title": view["title"], "steps": 2}
    assert result["direct"] == {"title": view["title"], "runs": 2}
    assert f"run={recorded['id']}" in view["url"]
    assert result["other"] == {
        "title": "▶ running Convert the supplier's PDF invoice into Word",
        "timeline": "no step recorded yet",
        "lessons": "distilled when the run finishes",
    }
    assert report["seen"]["consoleErrors"] == [] and report["seen"]["offsite"] == []
    shots = [ARTIFACTS / n for n in ("explore-run.png", "explore-runs.png")]
    assert report["screenshots"] == [str(p) for p in shots]
    assert all(p.stat().st_size > 10_000 for p in shots)
