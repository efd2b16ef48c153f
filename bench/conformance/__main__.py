"""Run the agent-memory conformance suite (neo4j-labs/agent-memory-tck, a checkout of it) against
Hippograph and count what passes, by category.

    python -m bench.conformance --suite /path/to/agent-memory-tck [--only conversation,reasoning]

Starts ``hippograph serve`` on the embedded engine (a temporary data directory, port 8791 unless
told), runs the suite's pytest with ``bench.conformance.plugin`` (the suite's tests get
``HippographAdapter``, which goes through ``hippograph.client``), stops the server, and prints
per category: passed, failed, skipped and not applicable (the adapter raised
``NotImplementedError``, or the suite skipped a test as not supported), then each failure's
scenario id, its one-line cause and, for those triaged in ``TRIAGED``, its class.

The suite is not on PyPI and is never vendored here. It needs ``pytest-asyncio``, which this
project's own suite must not load (its configure-time warning is an error under our
``filterwarnings``): install it apart, ``pip install --target DIR pytest-asyncio==1.5.0``, and
pass ``--deps DIR`` (default ``$HIPPOGRAPH_TCK_DEPS``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import yaml

from bench.conformance.triage import TRIAGED
from bench.server import serve

ROOT = Path(__file__).resolve().parents[2]
TESTS = "tck/tests/v1"
# Category -> the suite's test module.
CATEGORIES = {
    "schema": "test_schema",
    "conversation": "test_short_term",
    "long_term": "test_long_term",
    "reasoning": "test_reasoning",
    "cross_memory": "test_cross_memory",
    "platinum": "test_platinum",
}
COLUMNS = ("passed", "failed", "skipped", "n/a")
NOT_SUPPORTED = ("notimplementederror", "not implemented", "not supported")


def scenario_ids(suite: Path) -> dict[str, str]:
    """``test_module::Class::test`` -> its scenario id, from the suite's registry."""
    registry = yaml.safe_load((suite / "tck/registry/scenario_ids.yaml").read_text()) or {}
    return {entry["test_id"]: scn for scn, entry in registry.items()}


def registry_id(nodeid: str) -> str:
    """A pytest node id as the registry writes it: ``test_schema::TestX::test_y``."""
    path, _, rest = nodeid.partition("::")
    return f"{Path(path).stem}::{rest}"


def verdict(outcome: str, cause: str) -> str:
    """passed, failed, skipped, or n/a: what the adapter or the suite calls not supported."""
    if outcome in ("failed", "skipped") and any(w in cause.lower() for w in NOT_SUPPORTED):
        return "n/a"
    return outcome


def has_asyncio(deps: str | None) -> bool:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [deps]))}
    probe = [sys.executable, "-c", "import pytest_asyncio"]
    return subprocess.run(probe, env=env, capture_output=True).returncode == 0


def run_suite(suite: Path, modules: list[str], url: str, results: Path, deps: str | None) -> int:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), str(suite), deps])),
        "HIPPOGRAPH_TCK_URL": url,
        "HIPPOGRAPH_TCK_RESULTS": str(results),
    }
    command = [
        sys.executable, "-m", "pytest", "-p", "bench.conformance.plugin", "-p",
        "no:cacheprovider", "-q", "--no-header", "-o", "addopts=", "--tb=line",
        *[f"{TESTS}/{m}.py" for m in modules],
    ]  # fmt: skip
    return subprocess.run(command, cwd=suite, env=env).returncode


def report(outcomes: dict[str, dict[str, str]], ids: dict[str, str]) -> list[str]:
    """The table by category, then the failures with their scenario ids and causes."""
    counts: dict[str, Counter[str]] = {}
    failures: list[str] = []
    for nodeid, seen in sorted(outcomes.items()):
        tid = registry_id(nodeid)
        module = tid.split("::", 1)[0]
        category = next((c for c, m in CATEGORIES.items() if m == module), module)
        got = verdict(seen["outcome"], seen["cause"])
        counts.setdefault(category, Counter())[got] += 1
        if got == "failed":
            scn = ids.get(tid, "(no id)")
            klass, why = TRIAGED.get(scn, ("untriaged", ""))
            failures.append(f"  {scn} {tid}\n      {seen['cause']}\n      [{klass}] {why}".rstrip())
    width = max(len(c) for c in [*counts, "category"])
    lines = [f"{'category':<{width}}  " + "  ".join(f"{c:>7}" for c in (*COLUMNS, "total"))]
    total: Counter[str] = Counter()
    for category in [c for c in CATEGORIES if c in counts]:
        row = counts[category]
        total.update(row)
        cells = [row[c] for c in COLUMNS] + [sum(row.values())]
        lines.append(f"{category:<{width}}  " + "  ".join(f"{n:>7}" for n in cells))
    cells = [total[c] for c in COLUMNS] + [sum(total.values())]
    lines.append(f"{'all':<{width}}  " + "  ".join(f"{n:>7}" for n in cells))
    return [*lines, "", f"failures ({len(failures)}):", *failures]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", type=Path, required=True, help="a checkout of the suite")
    parser.add_argument("--only", default="", help=f"categories: {','.join(CATEGORIES)}")
    parser.add_argument("--port", type=int, default=8791, help="the server's port")
    parser.add_argument("--deps", default=os.environ.get("HIPPOGRAPH_TCK_DEPS"),
                        help="a directory holding pytest-asyncio (pip install --target)")  # fmt: skip
    parser.add_argument("--keep", action="store_true", help="keep the data dir and server log")
    args = parser.parse_args(argv)
    suite: Path = args.suite.resolve()
    if not (suite / TESTS).is_dir():
        parser.error(f"--suite: {suite} holds no {TESTS}")
    wanted = [c for c in args.only.split(",") if c] or list(CATEGORIES)
    unknown = sorted(set(wanted) - set(CATEGORIES))
    if unknown:
        parser.error(f"--only: unknown {', '.join(unknown)}; choose from {', '.join(CATEGORIES)}")
    if not has_asyncio(args.deps):
        parser.error(
            "the suite needs pytest-asyncio: pip install --target DIR pytest-asyncio==1.5.0, "
            "then pass --deps DIR (not into this project's venv: see the module docstring)"
        )
    data = Path(tempfile.mkdtemp(prefix="hippograph-tck-"))
    served = serve(data, port=args.port, log=data / "serve.log")
    results = data / "results.json"
    try:
        code = run_suite(suite, [CATEGORIES[c] for c in wanted], served.url, results, args.deps)
    finally:
        served.stop()
    if not results.exists():
        print(f"the suite's pytest exited {code} without results (log: {data})", file=sys.stderr)
        return 2
    lines = report(json.loads(results.read_text()), scenario_ids(suite))
    print("\n".join(lines))
    if args.keep:
        print(f"data and server log: {data}")
    else:
        shutil.rmtree(data, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
