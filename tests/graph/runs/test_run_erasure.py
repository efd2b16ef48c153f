"""Erasure and export reach agent runs: an erased session or subject takes its runs, their steps
and tool calls, and the experience and warnings distilled only from them (one another surviving
run, turn or explicit remember states stays, as for turns); an export carries runs and a
round trip through a fresh namespace gives them back whole; ``rebuild`` brings no erased lesson
back."""

from __future__ import annotations

import json
from typing import Any

from hippograph.graph import transfer
from hippograph.graph.runs import read, record
from hippograph.graph.runs.experience import finish
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import erasure, rebuild
from tests.conftest import wipe

TASK = "Convert the Wombatco quarterly PDF to an editable DOCX"
PHRASE = "wombatco"


def _run(rt: Runtime, ns: str, session: str, task: str = TASK) -> str:
    """A run that fails with pdftotext, then works through OCR and pandoc."""
    run = record.start(rt.store, rt.embedder, ns, task, session=session, agent="converter")
    record.add_step(rt.store, ns, run.id, thought="The Wombatco PDF has text",
                    action="extract text", observation="tables garbled")  # fmt: skip
    record.add_tool_call(rt.store, ns, run.id, "pdftotext", arguments={"file": "wombatco.pdf"},
                         status="failure", error="the tables come out as garbled text")  # fmt: skip
    record.add_step(rt.store, ns, run.id, action="ocr")
    record.add_tool_call(rt.store, ns, run.id, "ocrmypdf", arguments={"file": "wombatco.pdf"},
                         result="wombatco-ocr.pdf", status="success")  # fmt: skip
    record.add_step(rt.store, ns, run.id, action="convert")
    record.add_tool_call(rt.store, ns, run.id, "pandoc", arguments={"to": "docx"},
                         status="success")  # fmt: skip
    finish(rt.store, rt.embedder, ns, run.id, success=True, outcome="wombatco.docx",
           policy=rt.policy)  # fmt: skip
    return run.id


def _other(rt: Runtime, ns: str) -> str:
    run = record.start(rt.store, rt.embedder, ns, "Resize a visa photo to 600x600", session="s9")
    record.add_step(rt.store, ns, run.id, action="resize")
    record.add_tool_call(rt.store, ns, run.id, "convert", arguments={"size": "600x600"},
                         status="success")  # fmt: skip
    finish(rt.store, rt.embedder, ns, run.id, success=True, policy=rt.policy)
    return run.id


def _count(rt: Runtime, ns: str, label: str) -> int:
    """Nodes of ``label`` (from a fixed set) in ``ns``."""
    assert label in ("Run", "Step", "ToolCall", "Memory")
    query = f"MATCH (n:{label}) WHERE n.namespace = $ns RETURN count(n) AS n"
    return int(rt.store.driver.execute_query(query, ns=ns, database_=rt.store.database)[0][0]["n"])


def _everything(rt: Runtime, ns: str) -> str:
    return json.dumps(list(transfer.export_lines(rt.store, ns))).lower()


def test_clearing_a_session_erases_its_runs_and_their_lessons(
    any_runtime: Runtime, namespace: str
) -> None:
    rt = any_runtime
    erased, kept = _run(rt, namespace, "ops-1"), _other(rt, namespace)
    lessons = read.get(rt.store, namespace, erased)
    assert lessons is not None and lessons.experience  # a procedure and a warning
    assert PHRASE in _everything(rt, namespace)
    before = {label: _count(rt, namespace, label) for label in ("Run", "Step", "ToolCall")}

    done = erasure.erase(rt.store, namespace, session_id="ops-1")
    assert (done.runs, done.run_ids, done.kept) == (1, (erased,), 0)
    assert set(lessons.experience) <= set(done.memory_ids)
    assert read.get(rt.store, namespace, erased) is None
    after = {label: _count(rt, namespace, label) for label in ("Run", "Step", "ToolCall")}
    assert after == {"Run": before["Run"] - 1, "Step": before["Step"] - 3,
                     "ToolCall": before["ToolCall"] - 3}  # fmt: skip
    assert PHRASE not in _everything(rt, namespace)
    other = read.get(rt.store, namespace, kept)
    assert other is not None and other.experience and len(other.steps) == 1


def test_erasing_a_text_takes_the_runs_holding_it_anywhere(
    any_runtime: Runtime, namespace: str
) -> None:
    rt = any_runtime
    plain = _run(rt, namespace, "ops-1", task="Convert the annual PDF to an editable DOCX")
    _other(rt, namespace)
    # The phrase is only in that run's steps and tool calls, not in its task.
    dry = erasure.erase(rt.store, namespace, text="WOMBATCO.pdf", dry_run=True)
    assert (dry.runs, dry.run_ids) == (1, (plain,)) and _count(rt, namespace, "Run") == 2
    done = erasure.erase(rt.store, namespace, text="wombatco.pdf")
    assert done.run_ids == (plain,) and read.get(rt.store, namespace, plain) is None
    assert _count(rt, namespace, "Run") == 1


def test_a_lesson_another_run_also_taught_stays(any_runtime: Runtime, namespace: str) -> None:
    rt = any_runtime
    first, second = _run(rt, namespace, "ops-1"), _run(rt, namespace, "ops-2")
    taught = read.get(rt.store, namespace, first)
    again = read.get(rt.store, namespace, second)
    assert taught is not None and again is not None
    shared = set(taught.experience) & set(again.experience)
    assert shared  # the second run took the same path: it restated the procedure

    done = erasure.erase(rt.store, namespace, session_id="ops-1")
    assert done.run_ids == (first,) and done.kept >= len(shared)
    assert not shared & set(done.memory_ids)
    still = read.get(rt.store, namespace, second)
    assert still is not None and shared <= set(still.experience)


def test_a_rebuild_brings_no_erased_lesson_back(any_runtime: Runtime, namespace: str) -> None:
    rt = any_runtime
    erased = _run(rt, namespace, "ops-1")
    lessons = read.get(rt.store, namespace, erased)
    assert lessons is not None
    kept = _other(rt, namespace)
    erasure.erase(rt.store, namespace, session_id="ops-1")
    remaining = _count(rt, namespace, "Memory")

    rebuild.rebuild(rt.store, rt.embedder, namespace, policy=rt.policy)
    assert _count(rt, namespace, "Memory") == remaining
    assert PHRASE not in _everything(rt, namespace)
    assert read.get(rt.store, namespace, erased) is None
    # The surviving run's lessons point at it again: erasing it after the rebuild takes them.
    lessons = read.get(rt.store, namespace, kept)
    assert lessons is not None and lessons.experience
    done = erasure.erase(rt.store, namespace, session_id="s9")
    assert done.run_ids == (kept,) and set(lessons.experience) <= set(done.memory_ids)
    rebuild.rebuild(rt.store, rt.embedder, namespace, policy=rt.policy)
    assert _count(rt, namespace, "Memory") == 0 and _count(rt, namespace, "Run") == 0


def test_an_export_round_trip_gives_runs_back_whole(any_runtime: Runtime, namespace: str) -> None:
    rt = any_runtime
    ids = [_run(rt, namespace, "ops-1"), _other(rt, namespace)]
    before = {i: read.get(rt.store, namespace, i) for i in ids}
    similar = read.similar(rt.store, rt.embedder, namespace, TASK, k=2)
    lines = list(transfer.export_lines(rt.store, namespace))
    kinds: dict[str, int] = {}
    for line in lines:
        kinds[line["kind"]] = kinds.get(line["kind"], 0) + 1
    assert (kinds["run"], kinds["step"], kinds["tool_call"]) == (2, 4, 4)

    wipe(rt.store, namespace)
    assert all(read.get(rt.store, namespace, i) is None for i in ids)
    counts: dict[str, Any] = transfer.import_from(rt.store, [json.dumps(x) for x in lines])
    assert (counts["run"], counts["step"], counts["tool_call"]) == (2, 4, 4)
    assert counts["edge:DERIVED_FROM:Run"] >= 2
    for i in ids:
        assert read.get(rt.store, namespace, i) == before[i]
    again = read.similar(rt.store, rt.embedder, namespace, TASK, k=2)
    assert [(s.run.id, round(s.score, 4)) for s in again] == [
        (s.run.id, round(s.score, 4)) for s in similar
    ]
