"""The audit trail's file (api/audit.py): rotated past its size limit with five older files
kept, each owner-only; reads walk the files newest first; two processes appending and rotating
at once leave whole lines only."""

from __future__ import annotations

import json
import multiprocessing
import stat
import time
from pathlib import Path

from hippograph.api.audit import BACKUPS, AuditLog

LIMIT = 4096


def _append(data_dir: str, worker: int, n: int) -> None:
    log = AuditLog(Path(data_dir), max_bytes=LIMIT)
    for i in range(n):
        log.record(key_id=f"k{worker}", operation=f"op{i}", namespace="ns", outcome="ok")


def test_the_trail_rotates_keeps_five_files_and_reads_across_them(tmp_path: Path) -> None:
    log = AuditLog(tmp_path, max_bytes=LIMIT)
    for i in range(1000):
        log.record(key_id="k", operation=f"op{i}", namespace="ns" if i % 2 else None, outcome="ok")
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["audit.jsonl", *(f"audit.jsonl.{i}" for i in range(1, BACKUPS + 1))]
    for path in tmp_path.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert path.stat().st_size <= LIMIT + 200  # a line past the limit, at most
    kept = sum(len(p.read_text().splitlines()) for p in tmp_path.iterdir())
    assert 200 < kept < 1000  # bounded: the oldest went with the sixth rotation

    newest = log.read(limit=kept + 10)
    assert len(newest) == kept
    assert [e.operation for e in newest[:3]] == ["op999", "op998", "op997"]
    numbers = [int(e.operation[2:]) for e in newest]
    assert numbers == sorted(numbers, reverse=True)  # one order across the files
    assert newest[-1].operation == f"op{1000 - kept}"
    of_ns = log.read(namespace="ns", limit=kept)
    assert of_ns and all(e.namespace == "ns" for e in of_ns)


def test_two_processes_appending_and_rotating_leave_whole_lines(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    workers = [ctx.Process(target=_append, args=(str(tmp_path), w, 400)) for w in range(2)]
    for p in workers:
        p.start()
    for p in workers:
        p.join(120)
        assert p.exitcode == 0
    files = list(tmp_path.iterdir())
    assert len(files) <= BACKUPS + 1
    for path in files:
        for line in path.read_text().splitlines():
            entry = json.loads(line)  # never a torn or interleaved line
            assert entry["key_id"] in ("k0", "k1")


def test_refusals_are_sampled_once_a_source_and_counted(tmp_path: Path) -> None:
    log = AuditLog(tmp_path, max_bytes=LIMIT, max_samples=3)
    log.record(key_id="k1", operation="remember", namespace="ns", outcome="ok")
    for i in range(500):
        source = f"10.0.0.{i % 5}"
        log.refused(
            source=source, operation="remember", namespace="x" * 5000, outcome="UNAUTHENTICATED"
        )
    for _ in range(7):
        log.refused(source="10.0.0.9", operation="memories", namespace=None, outcome="RATE_LIMITED")
    lines = tmp_path.joinpath("audit.jsonl").read_text().splitlines()
    assert len(lines) == 1 + 3  # the genuine entry and one sample each for the first 3 sources
    samples = [json.loads(line) for line in lines[1:]]
    assert [s["source"] for s in samples] == ["10.0.0.0", "10.0.0.1", "10.0.0.2"]
    assert all(len(s["namespace"]) < 200 and s["key_id"] == "-" for s in samples)

    entries = log.read(limit=50)  # the read writes the window's summary first
    summaries = {e.outcome: e for e in entries if e.operation == "refused"}
    assert summaries["UNAUTHENTICATED"].counts == {"requests": 500, "sources": 5, "samples": 3}
    assert summaries["RATE_LIMITED"].counts == {"requests": 7, "sources": 1, "samples": 0}
    assert summaries["RATE_LIMITED"].source == "10.0.0.9"
    assert entries[-1].key_id == "k1"  # the genuine entry, oldest, still there
    assert len(entries) == 1 + 3 + 2


def test_a_window_ends_with_its_summary_and_the_next_samples_again(tmp_path: Path) -> None:
    log = AuditLog(tmp_path, refused_window_s=0.2, max_samples=5)
    for _ in range(10):
        log.refused(source="a", operation="op", namespace="ns", outcome="UNAUTHENTICATED")
    deadline = time.monotonic() + 10
    while "refused" not in tmp_path.joinpath("audit.jsonl").read_text():
        assert time.monotonic() < deadline, "the window's timer did not write its summary"
        time.sleep(0.05)
    log.refused(source="a", operation="op", namespace="ns", outcome="UNAUTHENTICATED")
    rows = [json.loads(x) for x in tmp_path.joinpath("audit.jsonl").read_text().splitlines()]
    assert [(r["operation"], r.get("counts", {}).get("requests")) for r in rows] == [
        ("op", None), ("refused", 10), ("op", None),
    ]  # fmt: skip
