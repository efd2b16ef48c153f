"""OpenTelemetry traces through the real app: a span per request, the recall stages and the
write steps as its children, attributes without memory text; and nothing when traces are off."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.api.tracing import RequestSpans
from hippograph.graph import tracing
from hippograph.graph.errors import ConfigError
from hippograph.graph.runtime import Runtime
from hippograph.settings import Settings
from tests.api.conftest import post

REMEMBER = """mutation($ns: String!, $m: MemoryInput!) {
  remember(namespace: $ns, memory: $m) { created } }"""
RECALL = """query($ns: String!, $c: String!) {
  recall(namespace: $ns, context: $c, k: 3) { items { memory { content } } } }"""
CONTEXT = """query($ns: String!, $c: String!) {
  context(namespace: $ns, context: $c, budget: 200) { text } }"""
RECALL_STAGES = [
    "hippograph.recall.seeds",
    "hippograph.recall.expansion",
    "hippograph.recall.ranking",
    "hippograph.recall.answer",
]
TEXT = "Odile bakes sourdough every Sunday at dawn"


def children(spans: Sequence[ReadableSpan], parent: ReadableSpan) -> list[ReadableSpan]:
    """The spans whose parent is ``parent``, in the order they started."""
    assert parent.context is not None
    found = [
        s for s in spans if s.parent is not None and s.parent.span_id == parent.context.span_id
    ]
    return sorted(found, key=lambda s: s.start_time or 0)


def requests(spans: Sequence[ReadableSpan]) -> list[ReadableSpan]:
    return sorted((s for s in spans if s.parent is None), key=lambda s: s.start_time or 0)


def test_recall_and_remember_give_the_span_tree(runtime: Runtime, namespace: str) -> None:
    exporter = InMemorySpanExporter()
    with TestClient(create_app(runtime=runtime, span_exporter=exporter)) as client:
        client.get("/healthz")  # not traced
        post(client, REMEMBER, ns=namespace, m={"content": TEXT})
        found = post(client, RECALL, ns=namespace, c="who bakes bread on Sundays?")
        post(client, CONTEXT, ns=namespace, c="who bakes bread on Sundays?")
    assert found["data"]["recall"]["items"][0]["memory"]["content"] == TEXT
    spans = exporter.get_finished_spans()
    remember, recall, context = requests(spans)
    assert [r.name for r in (remember, recall, context)] == ["POST /graphql"] * 3
    assert remember.attributes is not None
    assert remember.attributes["http.response.status_code"] == 200

    steps = children(spans, remember)
    assert [s.name for s in steps] == [
        "hippograph.write.validate",
        "hippograph.write.filter",
        "hippograph.write.embed",
        "hippograph.write.write",
    ]
    assert steps[2].attributes == {"texts": 1}
    written = dict(steps[3].attributes or {})
    assert written == {
        "items": 1,
        "created": 1,
        "namespace_hash": tracing.namespace_hash(namespace),
    }

    stages = children(spans, recall)
    assert [s.name for s in stages] == RECALL_STAGES
    seeds = dict(stages[0].attributes or {})
    assert seeds["namespace_hash"] == tracing.namespace_hash(namespace)
    assert seeds["k"] == 3 and int(seeds["seeds"]) >= 1 and float(seeds["embed_ms"]) > 0
    assert dict(stages[3].attributes or {}) == {"items": 1, "gap": False}
    for stage in (*steps, *stages):  # each inside its request, one after the other
        assert stage.start_time is not None and stage.end_time is not None
        assert stage.end_time >= stage.start_time

    (bundle,) = children(spans, context)
    assert bundle.name == "hippograph.recall.bundle"
    assert [s.name for s in children(spans, bundle)] == RECALL_STAGES
    assert dict(bundle.attributes or {})["items"] == 1

    # No span says what was remembered or asked, nor the namespace by name.
    for span in spans:
        for value in (span.attributes or {}).values():
            assert "Odile" not in str(value) and "bakes" not in str(value)
            assert namespace not in str(value)
    assert tracing.span("recall.seeds") is tracing.span("write.embed")  # uninstalled at exit


def test_traces_off_add_nothing() -> None:
    app = create_app(Settings.from_env({}))
    assert RequestSpans not in [m.cls for m in app.user_middleware]
    no_span = tracing.span("recall.seeds", "ns", k=3)
    assert no_span is tracing.span("write.write")
    with no_span as span:
        span.set_attribute("items", 1)  # accepted and dropped


@pytest.mark.parametrize(
    ("variables", "named"),
    [
        ({"HIPPOGRAPH_TRACES": "jaeger"}, "HIPPOGRAPH_TRACES"),
        ({"HIPPOGRAPH_TRACES_ENDPOINT": "collector:4318"}, "HIPPOGRAPH_TRACES_ENDPOINT"),
    ],
)
def test_trace_settings_are_checked(variables: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError) as raised:
        Settings.from_env(variables)
    assert named in str(raised.value)
