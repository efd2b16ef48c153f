"""Entity upkeep on the embedded engine: importance from the pagerank job, relationships whose
memory stopped holding end in the edges job, and duplicates proposed (never merged) by
consolidation."""

from __future__ import annotations

from typing import Any

from hippograph.graph import about, entities, memories
from hippograph.graph.model import NewMemory, Source
from hippograph.graph.runtime import Runtime
from hippograph.graph.upkeep import consolidation, entity_upkeep
from hippograph.graph.write import writepath
from hippograph.jobs import registry
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import RunOptions


def remember(rt: Runtime, ns: str, *texts: str) -> list[str]:
    items = [NewMemory(content=t, source=Source(messages=str(i))) for i, t in enumerate(texts)]
    found = writepath.remember(rt.store, rt.embedder, ns, items, policy=rt.policy)
    return [r.memory.id for r in found]


def run(rt: Runtime, ns: str, job: str) -> dict[str, int]:
    options = RunOptions(trigger="cli", namespace=ns)
    return dict(registry.run_job(rt.store, job, JobsConfig(), options).counts)


def row(uid: str, name: str, kind: str = "person", mentions: int = 1, **kw: Any) -> dict[str, Any]:
    canonical = kw.get("canonical", name.lower())
    return {"uid": uid, "name": name, "canonical": canonical, "kind": kind,
            "aliases": kw.get("aliases", []), "mentions": mentions}  # fmt: skip


def test_the_rules_propose_only_what_names_one_thing() -> None:
    rows = [
        row("1", "Acme, Inc.", "organisation", 3, canonical="acme, inc."),
        row("2", "ACME", "organisation", 5, canonical="acme"),
        row("3", "Ana"), row("4", "Ana Silva", mentions=4),
        row("5", "Tom"), row("6", "Tom Ford"), row("7", "Tom Hanks"),  # two Toms: no guess
        row("8", "José"), row("9", "Jose", "location"),  # a person and a place
        row("10", "Mum", aliases=["rosa"]), row("11", "Rosa", mentions=2),
    ]  # fmt: skip
    found = {(p.keep, p.other) for p in entity_upkeep.propose("ns", rows)}
    assert found == {("2", "1"), ("4", "3"), ("11", "10")}


def test_the_pagerank_job_scores_entities_by_what_links_them(
    runtime: Runtime, namespace: str
) -> None:
    remember(
        runtime, namespace,
        "Yesterday Tom and Ana met Lea at the Oslo office.",
        "On Monday Tom introduced Ana to the new manager.",
        "Later Tom called Lea about the budget.",
    )  # fmt: skip
    counts = run(runtime, namespace, "pagerank")
    assert counts["entity_entities"] >= 3 and counts["entity_updated"] >= 3
    listed = {e.name: e.importance for e in entities.search(runtime.store, namespace)}
    assert listed["Tom"] == 1.0
    assert all(0 < v <= 1.0 for v in listed.values() if v is not None)
    assert listed["Ana"] is not None and listed["Ana"] < 1.0
    # A second run on an unchanged graph rewrites nothing.
    assert run(runtime, namespace, "pagerank")["entity_updated"] == 0


def test_a_relationship_ends_when_its_memory_stops_holding_unless_another_says_it(
    runtime: Runtime, namespace: str
) -> None:
    [works] = remember(runtime, namespace, "Tom works at Acme.")
    [lives] = remember(runtime, namespace, "Tom lives in Oslo.")
    [again] = remember(runtime, namespace, "Tom and his team at Acme shipped the new release.")
    assert again != works
    memories.forget(runtime.store, namespace, works)
    memories.forget(runtime.store, namespace, lives)
    counts = run(runtime, namespace, "edges")
    tom = about.about(runtime.store, namespace, "Tom")
    state = {(r.type, r.other_name): (r.until, r.source) for r in tom.relationships}
    # Oslo was said once, by a memory now archived: the relationship ended, kept as history.
    assert state[("LIVES_IN", "Oslo")][0] is not None
    # Acme is still said by an active memory: the relationship holds, sourced there.
    assert state[("WORKS_AT", "Acme")] == (None, again)
    assert counts["relationships_ended"] == 1 and counts["relationships_moved"] == 1
    assert run(runtime, namespace, "edges")["relationships_ended"] == 0


def test_consolidation_proposes_merges_and_merges_nothing(runtime: Runtime, namespace: str) -> None:
    entities.relate(runtime.store, namespace, "Tom", "WORKS_AT", "Acme, Inc.", kind="person")
    entities.relate(runtime.store, namespace, "Jane", "WORKS_AT", "ACME Inc", kind="person")
    for dry in (True, False):
        report = consolidation.consolidate(runtime.store, namespace=namespace, dry_run=dry,
                                           force=True)  # fmt: skip
        assert [(p.keep_name, p.other_name) for p in report.entity_merges] in (
            [("Acme, Inc.", "ACME Inc")], [("ACME Inc", "Acme, Inc.")]
        )  # fmt: skip
        assert report.counts["entity_merges_proposed"] == 1
    listed = [e for e in entities.search(runtime.store, namespace) if "acme" in e.canonical]
    assert len(listed) == 2 and all(e.merged_into is None for e in listed)
