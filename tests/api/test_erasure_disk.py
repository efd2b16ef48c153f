"""An erased phrase is gone from every file of the data directory and from the export, once
the engine's word indexes are rebuilt (the erasure does it) and its transaction log is closed
(the command's engine stops): docs/operations.md, Erasure on disk. Commands run as a user runs them,
each on the embedded engine of a fresh data directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hippograph.api import cli
from hippograph.graph.runs import record
from hippograph.graph.runs.experience import finish
from hippograph.graph.runtime import Runtime
from hippograph.settings import Settings

PHRASE = "Quokkafest"


def hg(data: Path, *argv: str) -> None:
    assert cli.main([*argv, "--data-dir", str(data)]) == 0


def holding(root: Path, phrase: str) -> list[str]:
    """The files under ``root`` whose bytes hold ``phrase`` in any letter case."""
    needle = phrase.lower().encode("utf-8")
    return sorted(
        str(p.relative_to(root)) for p in root.rglob("*")
        if p.is_file() and needle in p.read_bytes().lower()
    )  # fmt: skip


@pytest.mark.slow
def test_an_erased_phrase_leaves_no_byte_on_disk_nor_in_the_export(tmp_path: Path) -> None:
    data = tmp_path / "data"
    source = tmp_path / "turns.jsonl"
    turns = [
        {"sessionId": "s1", "speaker": "Ana", "text": f"I am going to the {PHRASE} in Lisbon."},
        {"sessionId": "s1", "role": "assistant", "text": "",
         "toolCalls": [{"id": "c1", "name": "book", "arguments": json.dumps({"event": PHRASE})}]},
        {"sessionId": "s2", "speaker": "Ana", "text": "I prefer green tea in the morning."},
    ]  # fmt: skip
    source.write_text("\n".join(json.dumps(t) for t in turns) + "\n", encoding="utf-8")
    hg(data, "ingest", str(source), "-n", "ledger")
    hg(data, "jobs", "run", "vocabulary", "-n", "ledger")
    before = tmp_path / "before.jsonl"
    hg(data, "export", "-o", str(before), "-n", "ledger")
    assert PHRASE.lower() in before.read_text(encoding="utf-8").lower()
    assert holding(data, PHRASE), "the phrase should be on disk before the erasure"

    hg(data, "erase", "-n", "ledger", "--text", PHRASE.lower())
    after = tmp_path / "after.jsonl"
    hg(data, "export", "-o", str(after), "-n", "ledger")
    exported = after.read_text(encoding="utf-8")
    assert PHRASE.lower() not in exported.lower()
    assert "green tea" in exported  # the rest is still there
    assert holding(data, PHRASE) == []


RUN_PHRASE = "Platypusware"


@pytest.mark.slow
def test_an_erased_run_leaves_no_byte_on_disk_nor_in_the_export(tmp_path: Path) -> None:
    """A run's task, steps and tool calls, and the lessons distilled from it, go with its
    session; the other session's run stays."""
    data = tmp_path / "data"
    rt = Runtime.open(Settings.from_env({}, data_dir=data), attach=False)
    try:
        for session, task in (("ops-1", f"Convert the {RUN_PHRASE} invoice PDF to DOCX"),
                              ("ops-2", "Resize the visa photo to 600x600")):  # fmt: skip
            run = record.start(rt.store, rt.embedder, "ledger", task, session=session)
            record.add_step(rt.store, "ledger", run.id, thought=f"open the {task}",
                            action="convert", observation="tables garbled")  # fmt: skip
            given = {"file": f"{task}.pdf"}
            record.add_tool_call(rt.store, "ledger", run.id, "pdftotext", status="failure",
                                 arguments=given, error=f"{task} failed")  # fmt: skip
            record.add_step(rt.store, "ledger", run.id, action="ocr")
            record.add_tool_call(rt.store, "ledger", run.id, "ocrmypdf", status="success",
                                 arguments=given, result=f"{task} ok")  # fmt: skip
            finish(rt.store, rt.embedder, "ledger", run.id, success=True, policy=rt.policy)
    finally:
        rt.close()
    hg(data, "jobs", "run", "vocabulary", "-n", "ledger")
    before = tmp_path / "before.jsonl"
    hg(data, "export", "-o", str(before), "-n", "ledger")
    assert RUN_PHRASE.lower() in before.read_text(encoding="utf-8").lower()
    assert holding(data, RUN_PHRASE), "the phrase should be on disk before the erasure"

    hg(data, "erase", "-n", "ledger", "--session", "ops-1")
    after = tmp_path / "after.jsonl"
    hg(data, "export", "-o", str(after), "-n", "ledger")
    exported = after.read_text(encoding="utf-8")
    assert RUN_PHRASE.lower() not in exported.lower()
    kinds = [json.loads(line)["kind"] for line in exported.splitlines()]
    assert kinds.count("run") == 1 and kinds.count("step") == 2 and "visa photo" in exported
    assert holding(data, RUN_PHRASE) == []
