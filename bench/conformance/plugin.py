"""The pytest plugin ``python -m bench.conformance`` runs the suite with (``-p``): the suite's
tests get ``HippographAdapter``, and each test's outcome is written to ``$HIPPOGRAPH_TCK_RESULTS``
(JSON) for the runner to count.

The suite's ``tck/tests/v1/conftest.py`` builds its session adapter as ``ReferenceAdapter()``
unless ``--bridge-url`` is given. A conftest that close to the tests outranks any fixture of
ours, so the "override the adapter fixture in your conftest.py" of its ``tck/tests/conftest.py``
does not take: this plugin stands in for the name instead, bound before that conftest imports it
(a ``-p`` plugin is imported before any conftest).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import tck.reference.adapter as reference

from bench.conformance.adapter import HippographAdapter

RESULTS_VARIABLE = "HIPPOGRAPH_TCK_RESULTS"
reference.ReferenceAdapter = HippographAdapter
_OUTCOMES: dict[str, dict[str, Any]] = {}


def _cause(report: pytest.TestReport) -> str:
    """One line: a skip's reason, or the exception a failure ended on."""
    longrepr: Any = report.longrepr
    if isinstance(longrepr, tuple):  # a skip: (file, line, reason)
        return str(longrepr[2]).removeprefix("Skipped: ")
    crash = getattr(longrepr, "reprcrash", None)
    text = crash.message if crash is not None else str(longrepr)
    return " ".join(text.split())[:300]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    seen = _OUTCOMES.setdefault(report.nodeid, {"outcome": "passed", "cause": ""})
    if report.outcome == "failed" and seen["outcome"] != "failed":
        seen.update(outcome="failed", cause=_cause(report), when=report.when)
    elif report.outcome == "skipped" and seen["outcome"] == "passed":
        seen.update(outcome="skipped", cause=_cause(report), when=report.when)


def pytest_sessionfinish(session: pytest.Session) -> None:
    target = os.environ.get(RESULTS_VARIABLE)
    if target:
        Path(target).write_text(json.dumps(_OUTCOMES, indent=1, ensure_ascii=False))
