"""The client is a layer above graph/: it imports only the domain's records and errors (and the
stdlib-only service clock the records' timestamps read; the run records of ``graph.runs.model``),
never the engine, the schema or the embedding model."""

from __future__ import annotations

import ast
import subprocess
import sys

PROBE = """
import sys, hippograph.client
print(sorted(m for m in sys.modules if m.startswith(("hippograph", "numpy", "neo4j",
      "strawberry", "torch", "mcp", "starlette"))))
"""


def test_importing_the_client_loads_only_model_and_errors_of_graph() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    loaded = set(ast.literal_eval(out))
    assert loaded == {
        "hippograph", "hippograph.graph", "hippograph.graph.model", "hippograph.graph.errors",
        "hippograph.graph.clock", "hippograph.client", "hippograph.client.client",
        "hippograph.client.documents", "hippograph.client.errors", "hippograph.client.operations",
        "hippograph.client.records", "hippograph.client.transcripts",
        "hippograph.client.documents_more", "hippograph.client.operations_more",
        "hippograph.client.views", "hippograph.client.runs", "hippograph.client.documents_runs",
        "hippograph.client.entity_views",
        "hippograph.graph.runs", "hippograph.graph.runs.model",
    }  # fmt: skip
