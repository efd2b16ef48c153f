"""``GET /metrics``: the server's counters in the Prometheus text format (version 0.0.4).

What is counted, since the process started:

* ``hippograph_graphql_requests_total{operation, type}`` and the latency histogram
  ``hippograph_graphql_request_seconds{operation}``: one per GraphQL operation, named by its
  root fields (``recall``, ``remember,tags``; ``unparsed`` for a document that does not parse).
* ``hippograph_graphql_errors_total{operation, code}``: each error an answer carried, by its
  ``extensions.code`` (``INVALID_INPUT``, ``UNAUTHENTICATED``, ``INTERNAL``...).
* ``hippograph_recall_seconds{stage}``: each recall's ``embed`` (the question's embedding) and
  ``total`` time, from the API or MCP.
* ``hippograph_job_runs_total{job, status}``: the runs of the in-process jobs (``serve``).

Written by hand (a few counters and histograms need no client library, and each app keeps its
own registry: tests build many apps in one process). A sample query, the p95 recall latency
over five minutes::

    histogram_quantile(0.95, sum by (le) (rate(hippograph_graphql_request_seconds_bucket{operation="recall"}[5m])))
"""  # noqa: E501

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from graphql import FieldNode, GraphQLError, OperationDefinitionNode
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from strawberry.extensions import SchemaExtension

from hippograph.api.errors import to_graphql
from hippograph.graph.recall.results import RecallResult
from hippograph.graph.upkeep.jobruns import JobRun

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Seconds: from a cached read (a few ms) to a long ingest or rebuild.
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
Labels = tuple[tuple[str, str], ...]


class Histogram:
    """Cumulative bucket counts, sum and count of observations, per label set."""

    def __init__(self) -> None:
        self.counts: dict[Labels, list[int]] = defaultdict(lambda: [0] * len(BUCKETS))
        self.sums: dict[Labels, float] = defaultdict(float)
        self.totals: dict[Labels, int] = defaultdict(int)

    def observe(self, labels: Labels, seconds: float) -> None:
        buckets = self.counts[labels]
        for i, bound in enumerate(BUCKETS):
            if seconds <= bound:
                buckets[i] += 1
        self.sums[labels] += seconds
        self.totals[labels] += 1


class Metrics:
    """One app's counters (thread-safe: resolvers and jobs run on threads of their own)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.counters: dict[str, dict[Labels, float]] = defaultdict(lambda: defaultdict(float))
        self.histograms: dict[str, Histogram] = defaultdict(Histogram)

    def count(self, name: str, amount: float = 1.0, **labels: str) -> None:
        with self._lock:
            self.counters[name][_labels(labels)] += amount

    def observe(self, name: str, seconds: float, **labels: str) -> None:
        with self._lock:
            self.histograms[name].observe(_labels(labels), seconds)

    def recall(self, result: RecallResult) -> None:
        """A recall's stage times (``Runtime.recall_observers``)."""
        self.observe("hippograph_recall_seconds", result.embed_ms / 1000, stage="embed")
        self.observe("hippograph_recall_seconds", result.total_ms / 1000, stage="total")

    def job_run(self, run: JobRun) -> None:
        """A finished run of an in-process job (``Worker.on_run``)."""
        self.count("hippograph_job_runs_total", job=run.name, status=run.status)

    def exposition(self) -> str:
        """Every metric in the Prometheus text format."""
        lines: list[str] = []
        with self._lock:
            for name in sorted(self.counters):
                lines += [f"# HELP {name} {HELP[name]}", f"# TYPE {name} counter"]
                for labels, value in sorted(self.counters[name].items()):
                    lines.append(f"{name}{_render(labels)} {_number(value)}")
            for name in sorted(self.histograms):
                h = self.histograms[name]
                lines += [f"# HELP {name} {HELP[name]}", f"# TYPE {name} histogram"]
                for labels in sorted(h.totals):
                    for bound, n in zip(BUCKETS, h.counts[labels], strict=True):
                        bucket = (*labels, ("le", _number(bound)))
                        lines.append(f"{name}_bucket{_render(bucket)} {n}")
                    every = (*labels, ("le", "+Inf"))
                    lines.append(f"{name}_bucket{_render(every)} {h.totals[labels]}")
                    lines.append(f"{name}_sum{_render(labels)} {_number(h.sums[labels])}")
                    lines.append(f"{name}_count{_render(labels)} {h.totals[labels]}")
        return "".join(f"{line}\n" for line in lines)


HELP = {
    "hippograph_graphql_requests_total": "GraphQL operations answered, by root fields and type.",
    "hippograph_graphql_errors_total": "Errors in GraphQL answers, by root fields and code.",
    "hippograph_graphql_request_seconds": "Time to answer a GraphQL operation, by root fields.",
    "hippograph_recall_seconds": "Time of a recall's stages: embed (the question) and total.",
    "hippograph_job_runs_total": "Runs of the in-process maintenance jobs, by job and status.",
}


def _labels(labels: dict[str, str]) -> Labels:
    return tuple(sorted(labels.items()))


def _render(labels: Labels) -> str:
    if not labels:
        return ""
    escaped = (
        (k, v.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')) for k, v in labels
    )
    return "{" + ",".join(f'{k}="{v}"' for k, v in escaped) + "}"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


async def endpoint(request: Request) -> Response:
    metrics: Metrics = request.app.state.metrics
    return PlainTextResponse(metrics.exposition(), media_type=CONTENT_TYPE)


class OperationMetrics(SchemaExtension):
    """Counts and times each GraphQL operation, and the error codes of its answer. Listed
    before ``HippographErrors``: it leaves last, so the errors it sees carry their codes."""

    def on_operation(self) -> Iterator[None]:
        started = time.perf_counter()
        failure: GraphQLError | None = None
        try:
            yield
        except GraphQLError as exc:  # a document that does not parse ends the operation here
            failure = exc
            raise
        finally:
            self._record(time.perf_counter() - started, failure)

    def _record(self, took: float, failure: GraphQLError | None) -> None:
        context = self.execution_context
        request = context.context.get("request") if isinstance(context.context, dict) else None
        metrics = getattr(request.app.state, "metrics", None) if request is not None else None
        if not isinstance(metrics, Metrics):
            return
        operation = root_fields(context.graphql_document, context.operation_name)
        parsed = context.graphql_document is not None
        kind = context.operation_type.value if parsed else "unknown"
        metrics.count("hippograph_graphql_requests_total", operation=operation, type=kind)
        metrics.observe("hippograph_graphql_request_seconds", took, operation=operation)
        result = context.result
        errors = result.errors if result is not None else context.pre_execution_errors
        for error in [*(errors or ()), *([failure] if failure is not None else [])]:
            # Not yet mapped when the operation ended early (HippographSchema.execute maps it).
            code = (error.extensions or {}).get("code") or (to_graphql(error).extensions or {})[
                "code"
            ]
            metrics.count("hippograph_graphql_errors_total", operation=operation, code=str(code))


def root_fields(document: Any, operation_name: str | None) -> str:
    """The root field names of the operation ``document`` runs (sorted, comma-joined;
    introspection as ``introspection``), or ``unparsed``."""
    if document is None:
        return "unparsed"
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    chosen = [o for o in operations if o.name is not None and o.name.value == operation_name]
    if not operations:
        return "none"
    operation = (chosen or operations)[0]
    names = {
        "introspection" if s.name.value.startswith("__") else s.name.value
        for s in operation.selection_set.selections
        if isinstance(s, FieldNode)
    }
    return ",".join(sorted(names)) or "none"
