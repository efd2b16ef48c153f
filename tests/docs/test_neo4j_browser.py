"""The Cypher of docs/neo4j-browser.md (hippograph/cypher/browser/*.cypher), run on a small real
graph on each backend, and the page showing exactly the files' text."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import pytest

from hippograph.graph import memories
from hippograph.graph.model import NewMemory
from hippograph.graph.runs import record
from hippograph.graph.runs.experience import finish
from hippograph.graph.runtime import Runtime
from hippograph.graph.store import queries
from hippograph.graph.write import writepath

DOCS = Path(__file__).resolve().parents[2] / "docs" / "neo4j-browser.md"
BROWSER = queries.ROOT / "browser"
NAMES = sorted(p.stem for p in BROWSER.glob("*.cypher"))


def test_the_page_shows_each_file_as_it_is() -> None:
    page = DOCS.read_text(encoding="utf-8")
    for name in NAMES:
        text = (BROWSER / f"{name}.cypher").read_text(encoding="utf-8").strip()
        assert f"```cypher\n{text}\n```" in page, f"docs/neo4j-browser.md differs from {name}"
        assert f"hippograph/cypher/browser/{name}.cypher" in page
    assert page.count("```cypher\n") == len(NAMES), "every query on the page is a file"
    # Each query's parameters are set on the page before it (Neo4j Browser's :param).
    for name in NAMES:
        text = (BROWSER / f"{name}.cypher").read_text(encoding="utf-8")
        section = page.split(f"hippograph/cypher/browser/{name}.cypher", 1)[1]
        for param in set(re.findall(r"\$(\w+)", text)):
            assert f":param {param} =>" in section.split("```cypher", 1)[0], (name, param)


def test_the_queries_have_no_backend_override() -> None:
    """The page shows one text: both backends run that file."""
    assert len(NAMES) == 11
    for name in NAMES:
        for backend in queries.BACKENDS:
            assert queries.load(f"browser/{name}", backend).path == BROWSER / f"{name}.cypher"


def run(rt: Runtime, name: str, **params: Any) -> list[dict[str, Any]]:
    """The query as Neo4j Browser runs it: its text with the page's parameters."""
    store = rt.store
    text = queries.load(f"browser/{name}", store.dialect.name).text
    records = store.driver.execute_query(text, params, database_=store.database).records
    return [dict(r.items()) for r in records]


def columns(rows: list[dict[str, Any]], *keys: str) -> list[tuple[Any, ...]]:
    return [tuple(row[k] for k in keys) for row in rows]


def day(n: int) -> str:
    return f"2024-0{n}-01T10:00:00Z"


@pytest.fixture
def graph(any_runtime: Runtime, namespace: str) -> dict[str, str]:
    """Six memories: a chain of three standup rules (v1 <- v2 <- v3), tea, cycling, driving;
    RELATES_TO links of three strengths; contradictions open, resolved and with a superseded
    side; two clusters."""
    rt, ns = any_runtime, namespace
    items = {
        "v1": NewMemory(content="The team standup is at nine on Mondays", occurred_at=day(1)),
        "v2": NewMemory(content="Standups moved to Tuesdays at ten", occurred_at=day(2)),
        "tea": NewMemory(
            content="Ada prefers jasmine tea", memory_type="preference", tags=("drinks",),
            occurred_at=day(3),
        ),
        "v3": NewMemory(
            content="There are no standups: updates go in the weekly digest", occurred_at=day(4)
        ),
        "bike": NewMemory(content="Ada cycles to the office along the canal", occurred_at=day(5)),
        "car": NewMemory(content="Ada drives to the office every day", occurred_at=day(6)),
    }  # fmt: skip
    ids = {}
    for key, item in items.items():
        result = writepath.remember(rt.store, rt.embedder, ns, [item], policy=rt.policy)[0]
        assert (result.action, result.created) == ("ADD", True), (key, result)
        ids[key] = result.memory.id
    memories.supersede(rt.store, ns, ids["v1"], ids["v2"], reason="moved to Tuesdays")
    memories.supersede(rt.store, ns, ids["v2"], ids["v3"], reason="no more standups")
    for a, b, weight, confidence in [
        ("tea", "bike", 0.9, 1.0),
        ("v3", "bike", 0.5, 0.6),
        ("tea", "v3", 0.8, 0.5),
    ]:
        memories.link(rt.store, ns, ids[a], ids[b], weight=weight, confidence=confidence)
    for a, b in [("car", "bike"), ("tea", "car"), ("v1", "tea")]:
        memories.link(rt.store, ns, ids[a], ids[b], "CONTRADICTS", weight=0.9)
    rt.store.write(
        "consolidation/resolve",
        namespace=ns,
        now=day(7),
        rows=[{"a": ids["tea"], "b": ids["car"], "resolution": "kept both"}],
    )
    clusters = {"commute": f"{ns}-commute", "work": f"{ns}-work"}
    rt.store.write(
        "job/cluster_upsert",
        namespace=ns,
        generation="g1",
        as_of=day(7),
        clusters=[
            {"id": clusters["commute"], "centroid": [0.0], "size": 3, "label": "commute"},
            {"id": clusters["work"], "centroid": [0.0], "size": 1, "label": "work"},
        ],
    )
    rt.store.write(
        "job/cluster_assign",
        generation="g1",
        rows=[
            {"id": ids["bike"], "cluster": clusters["commute"], "score": 0.95},
            {"id": ids["car"], "cluster": clusters["commute"], "score": 0.7},
            {"id": ids["tea"], "cluster": clusters["commute"], "score": 0.2},
            {"id": ids["v3"], "cluster": clusters["work"], "score": 1.0},
        ],
    )
    return {**ids, **{f"cluster:{k}": v for k, v in clusters.items()}}


def test_namespace_graph(any_runtime: Runtime, namespace: str, graph: dict[str, str]) -> None:
    rows = run(any_runtime, "namespace_graph", namespace=namespace, limit=1000)
    types = {r["r"].type for r in rows}
    # MENTIONS: "Ada" is an entity the memories mention.
    assert types == {
        "HAS_TAG", "RELATES_TO", "SUPERSEDES", "CONTRADICTS", "IN_CLUSTER", "MENTIONS",
    }  # fmt: skip
    assert {r["m"]["id"] for r in rows} == {v for k, v in graph.items() if ":" not in k}
    assert all(r["m"]["namespace"] == namespace for r in rows)
    assert len(run(any_runtime, "namespace_graph", namespace=namespace, limit=5)) == 5


def test_recent_memories(any_runtime: Runtime, namespace: str, graph: dict[str, str]) -> None:
    rows = run(any_runtime, "recent_memories", namespace=namespace, limit=4)
    assert columns(rows, "id", "status", "type") == [
        (graph["car"], "active", "fact"),
        (graph["bike"], "active", "fact"),
        (graph["v3"], "active", "fact"),
        (graph["tea"], "active", "preference"),
    ]
    assert [r["created_at"][:10] for r in rows] == ["2024-06-01", "2024-05-01", "2024-04-01",
                                                    "2024-03-01"]  # fmt: skip
    assert rows[3]["content"] == "Ada prefers jasmine tea"
    assert "drinks" in rows[3]["tags"] and rows[3]["tags"] == sorted(rows[3]["tags"])
    everything = run(any_runtime, "recent_memories", namespace=namespace, limit=100)
    assert [r["id"] for r in everything][-2:] == [graph["v2"], graph["v1"]]
    assert [r["status"] for r in everything][-2:] == ["superseded", "superseded"]


@pytest.mark.parametrize("through", ["v1", "v2", "v3"])
def test_supersession_chain_from_any_version(
    any_runtime: Runtime, namespace: str, graph: dict[str, str], through: str
) -> None:
    rows = run(any_runtime, "supersession_chain", namespace=namespace, id=graph[through])
    assert columns(rows, "step", "id", "status", "reason") == [
        (0, graph["v3"], "active", None),
        (1, graph["v2"], "superseded", "no more standups"),
        (2, graph["v1"], "superseded", "moved to Tuesdays"),
    ]
    assert rows[2]["content"] == "The team standup is at nine on Mondays"
    assert all(r["superseded_at"] for r in rows[1:])
    assert [len(r["chain"]) for r in rows] == [0, 1, 2]  # the path drawn in the graph view


def test_a_memory_never_superseded_is_its_own_chain(
    any_runtime: Runtime, namespace: str, graph: dict[str, str]
) -> None:
    rows = run(any_runtime, "supersession_chain", namespace=namespace, id=graph["tea"])
    assert columns(rows, "step", "id", "reason") == [(0, graph["tea"], None)]
    other = f"test-{uuid.uuid4().hex[:12]}"
    assert run(any_runtime, "supersession_chain", namespace=other, id=graph["tea"]) == []


def test_clusters_and_a_clusters_members(
    any_runtime: Runtime, namespace: str, graph: dict[str, str]
) -> None:
    clusters = run(any_runtime, "clusters", namespace=namespace)
    assert columns(clusters, "id", "label", "size") == [
        (graph["cluster:commute"], "commute", 3),
        (graph["cluster:work"], "work", 1),
    ]
    rows = run(
        any_runtime, "cluster_members", namespace=namespace,
        cluster_id=graph["cluster:commute"], limit=2,
    )  # fmt: skip
    assert columns(rows, "cluster", "id", "score") == [
        ("commute", graph["bike"], 0.95),
        ("commute", graph["car"], 0.7),
    ]
    assert rows[0]["content"] == "Ada cycles to the office along the canal"
    assert rows[0]["r"].type == "IN_CLUSTER" and "Cluster" in rows[0]["c"].labels
    elsewhere = run(
        any_runtime, "cluster_members", namespace=f"test-{uuid.uuid4().hex[:12]}",
        cluster_id=graph["cluster:commute"], limit=10,
    )  # fmt: skip
    assert elsewhere == []


def test_strongest_links(any_runtime: Runtime, namespace: str, graph: dict[str, str]) -> None:
    rows = run(any_runtime, "strongest_links", namespace=namespace, limit=10)
    assert [(r["a"]["id"], r["b"]["id"]) for r in rows] == [
        (graph["tea"], graph["bike"]),
        (graph["tea"], graph["v3"]),
        (graph["v3"], graph["bike"]),
    ]
    assert [r["strength"] for r in rows] == pytest.approx([0.9, 0.4, 0.3])
    assert columns(rows, "weight", "confidence", "kind")[0] == (0.9, 1.0, "explicit")
    assert rows[0]["from_content"] == "Ada prefers jasmine tea"
    assert rows[0]["r"].type == "RELATES_TO"
    assert len(run(any_runtime, "strongest_links", namespace=namespace, limit=1)) == 1


def test_open_contradictions(any_runtime: Runtime, namespace: str, graph: dict[str, str]) -> None:
    """The resolved one (tea/car) and the one with a superseded side (v1/tea) are left out."""
    rows = run(any_runtime, "open_contradictions", namespace=namespace)
    assert columns(rows, "id", "contradicted_id", "content", "contradicted_content") == [
        (
            graph["car"],
            graph["bike"],
            "Ada drives to the office every day",
            "Ada cycles to the office along the canal",
        )
    ]
    assert rows[0]["since"] and rows[0]["r"].type == "CONTRADICTS"


def test_the_entity_queries_show_people_and_their_relationships(
    any_runtime: Runtime, namespace: str
) -> None:
    rt, ns = any_runtime, namespace
    for said in ("My sister Ana lives in Porto.", "Ana moved to Lisbon in May."):
        writepath.remember(rt.store, rt.embedder, ns, [NewMemory(content=said)], policy=rt.policy)
    edges = run(rt, "entity_graph", namespace=ns, limit=50)
    assert {(e["a"]["name"], e["r"]["type"], e["b"]["name"]) for e in edges} == {
        ("Ana", "SISTER_OF", "the user"),
        ("Ana", "LIVES_IN", "Porto"),
        ("Ana", "LIVES_IN", "Lisbon"),
    }
    (about,) = run(rt, "entity_about", namespace=ns, entity="ana", limit=10)
    assert about["entity"] == "Ana" and about["kind"] == "person"
    assert sorted(about["outgoing"])[0].startswith("LIVES_IN Lisbon")
    assert any(o.startswith("LIVES_IN Porto (until ") for o in about["outgoing"])
    assert [m.split("  ", 1)[1] for m in about["memories"]] == [
        "My sister Ana lives in Porto.", "Ana moved to Lisbon in May.",
    ]  # fmt: skip


def test_run_timeline_reads_a_run_step_by_step(any_runtime: Runtime, namespace: str) -> None:
    rt, ns = any_runtime, namespace
    started = record.start(rt.store, rt.embedder, ns, "Convert the report PDF to DOCX")
    record.add_step(rt.store, ns, started.id, action="extract")
    record.add_tool_call(rt.store, ns, started.id, "pdftotext", status="failure", error="no tables")
    record.add_step(rt.store, ns, started.id, thought="check the scan first")
    record.add_step(rt.store, ns, started.id, action="ocr")
    record.add_tool_call(rt.store, ns, started.id, "ocrmypdf", status="success", duration_ms=900)
    finish(rt.store, rt.embedder, ns, started.id, success=True)
    rows = run(rt, "run_timeline", namespace=ns, run_id=started.id)
    assert columns(rows, "step", "action", "tool", "status", "error") == [
        (1, "extract", "pdftotext", "failure", "no tables"),
        (2, None, None, None, None),
        (3, "ocr", "ocrmypdf", "success", None),
    ]
    learned = rows[0]["learned"]
    assert any(x.startswith("procedure: ") and "ocrmypdf" in x for x in learned)
    assert any(x.startswith("negative: ") and "pdftotext" in x for x in learned)
    assert run(rt, "run_timeline", namespace="other", run_id=started.id) == []


def test_recent_runs_lists_runs_newest_first_with_failed_calls(
    any_runtime: Runtime, namespace: str
) -> None:
    rt, ns = any_runtime, namespace
    first = record.start(rt.store, rt.embedder, ns, "Convert the report PDF to DOCX")
    record.add_step(rt.store, ns, first.id, action="extract")
    record.add_tool_call(rt.store, ns, first.id, "pdftotext", status="failure", error="no tables")
    record.add_tool_call(rt.store, ns, first.id, "ocrmypdf", status="success")
    taught = {
        e.memory_id for e in finish(rt.store, rt.embedder, ns, first.id, success=True).experience
    }
    second = record.start(rt.store, rt.embedder, ns, "Deploy the docs site")
    rows = run(rt, "recent_runs", namespace=ns, limit=10)
    assert columns(rows, "run_id", "status", "success", "steps", "calls", "failed") == [
        (second.id, "running", None, 0, 0, 0),
        (first.id, "finished", True, 1, 2, 1),
    ]
    assert taught and columns(rows, "learned") == [(0,), (len(taught),)]
    assert columns(run(rt, "recent_runs", namespace=ns, limit=1), "run_id") == [(second.id,)]
    assert run(rt, "recent_runs", namespace="other", limit=10) == []
