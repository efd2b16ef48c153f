"""/metrics over the real app: Prometheus text that counts GraphQL operations by root field,
times them, counts error codes and recall stages; and the landing page at /."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.api.landing import title
from hippograph.api.metrics import CONTENT_TYPE, Metrics
from hippograph.graph.runtime import Runtime
from hippograph.graph.upkeep.jobruns import JobRun
from tests.api.conftest import post

ROOT = Path(__file__).resolve().parents[2]

REMEMBER = """mutation($ns: String!, $m: MemoryInput!) {
  remember(namespace: $ns, memory: $m) { created } }"""
RECALL = """query($ns: String!, $c: String!) {
  recall(namespace: $ns, context: $c, k: 3) { items { score } } }"""
_SAMPLE = re.compile(r"^([a-z_]+)(\{[^}]*\})? (\S+)$")


def samples(text: str) -> dict[str, float]:
    """Every sample line of an exposition: ``name{labels}`` -> value (each line must parse)."""
    found = {}
    for line in text.splitlines():
        if line.startswith("#"):
            assert re.match(r"^# (HELP|TYPE) [a-z_]+ .+$", line), line
            continue
        match = _SAMPLE.match(line)
        assert match, f"not a sample line: {line!r}"
        found[match.group(1) + (match.group(2) or "")] = float(match.group(3))
    return found


def test_metrics_count_time_and_code_graphql_operations(client: TestClient, namespace: str) -> None:
    before = samples(client.get("/metrics").text)
    post(client, REMEMBER, ns=namespace, m={"content": "Mira takes the 7:40 train to work"})
    post(client, RECALL, ns=namespace, c="how does Mira get to work?")
    post(client, RECALL, ns=namespace, c="which train does Mira take?")
    bad = post(client, REMEMBER, ns="Bad Namespace!", m={"content": "x"})
    code = bad["errors"][0]["extensions"]["code"]
    post(client, "{ recall(")  # does not parse

    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"] == CONTENT_TYPE
    now = samples(response.text)

    def grew(key: str) -> float:
        return now.get(key, 0.0) - before.get(key, 0.0)

    assert grew('hippograph_graphql_requests_total{operation="recall",type="query"}') == 2
    assert grew('hippograph_graphql_requests_total{operation="remember",type="mutation"}') == 2
    assert grew('hippograph_graphql_request_seconds_count{operation="recall"}') == 2
    assert grew('hippograph_graphql_request_seconds_bucket{operation="recall",le="+Inf"}') == 2
    assert grew('hippograph_graphql_request_seconds_sum{operation="recall"}') > 0
    assert grew(f'hippograph_graphql_errors_total{{code="{code}",operation="remember"}}') == 1
    parse_failed = 'hippograph_graphql_errors_total{code="GRAPHQL_PARSE_FAILED",'
    parse_failed += 'operation="unparsed"}'
    assert grew(parse_failed) == 1
    assert grew('hippograph_recall_seconds_count{stage="total"}') == 2
    assert grew('hippograph_recall_seconds_count{stage="embed"}') == 2
    # the buckets are cumulative and end at the count
    buckets = [
        v
        for k, v in now.items()
        if k.startswith("hippograph_graphql_request_seconds_bucket") and '"recall"' in k
    ]
    assert (
        buckets == sorted(buckets)
        and buckets[-1] == now['hippograph_graphql_request_seconds_count{operation="recall"}']
    )


def test_job_runs_are_counted_by_job_and_status() -> None:
    metrics = Metrics()
    for status in ("succeeded", "succeeded", "failed"):
        run = JobRun(
            id="r", name="pagerank", status=status, holder="h", trigger="schedule", scope="*",
            started_at="2025-01-01T00:00:00Z", as_of="2025-01-01T00:00:00Z",
        )  # fmt: skip
        metrics.job_run(run)
    found = samples(metrics.exposition())
    assert found['hippograph_job_runs_total{job="pagerank",status="succeeded"}'] == 2
    assert found['hippograph_job_runs_total{job="pagerank",status="failed"}'] == 1


def test_label_values_are_escaped() -> None:
    metrics = Metrics()
    metrics.count("hippograph_graphql_errors_total", operation='a"b\\c\nd', code="X")
    (line,) = [x for x in metrics.exposition().splitlines() if not x.startswith("#")]
    assert line == 'hippograph_graphql_errors_total{code="X",operation="a\\"b\\\\c\\nd"} 1'


def test_the_landing_page_links_what_the_server_offers(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.text
    for href in ('href="/graphql"', 'href="/explore"', 'href="/healthz"', 'href="/metrics"'):
        assert href in html
    assert "<script" not in html and "http://" not in html and "https://" not in html
    assert "default-src 'none'" in response.headers["content-security-policy"]
    docs = re.findall(r'href="(/docs/[^"]+)">([^<]+)</a>', html)
    assert docs[0] == ("/docs/README.md", "Hippograph")
    # every page of docs/ is linked under its title, and served as it is in the checkout
    for page in sorted(ROOT.glob("docs/**/*.md")):
        name = page.relative_to(ROOT).as_posix()
        assert (f"/docs/{name}", escape(title(page))) in docs
        assert client.get(f"/docs/{name}").text == page.read_text(encoding="utf-8")
    assert ("/docs/docs/quickstart.md", "Quick start") in docs
    readme = client.get("/docs/README.md")
    assert readme.status_code == 200 and readme.text.startswith("# ")
    assert readme.headers["content-type"].startswith("text/markdown")
    for path in ("/docs/../pyproject.toml", "/docs/hippograph/settings.py", "/docs/nope.md"):
        assert client.get(path).status_code == 404


def test_the_landing_page_says_which_pages_are_off(runtime: Runtime) -> None:
    settings = runtime.settings.with_(graphiql=False, explorer=False)
    with TestClient(create_app(settings, runtime=runtime)) as client:
        html = client.get("/").text
    assert 'href="/graphql"' not in html and "HIPPOGRAPH_GRAPHIQL=0" in html
    assert 'href="/explore"' not in html and "HIPPOGRAPH_EXPLORER=0" in html
