"""Profile views on the embedded engine: identity, constraints and preferences with their
sources, updated when a source is superseded; skill proposals from procedures that worked."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.graph import memories
from hippograph.graph.model import NewMemory
from hippograph.graph.recall import feedback
from hippograph.graph.runtime import Runtime
from hippograph.graph.upkeep import profile
from hippograph.graph.write import writepath
from hippograph.jobs import registry
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import RunOptions


def remember(rt: Runtime, ns: str, *items: NewMemory) -> list[str]:
    results = writepath.remember(rt.store, rt.embedder, ns, list(items), policy=rt.policy)
    return [r.memory.id for r in results]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("My name is Ada.", ("name", "i", "Ada")),
        ("Melanie is a counselor.", ("role", "melanie", "counselor")),
        ("Ada works at Initech.", ("workplace", "ada", "Initech")),
        ("Caroline moved to Denver in May.", ("place", "caroline", "Denver")),
        ("I am from Sweden.", ("origin", "i", "Sweden")),
        ("Jon's sister visited.", ("relation", "jon", "sister")),
        ("We adopted another puppy called Pixie.", None),
        ("The build takes ten minutes.", None),
    ],
)
def test_identity_patterns(text: str, expected: tuple[str, str, str] | None) -> None:
    assert profile.identity_of(text) == expected


def test_the_profile_job_materializes_entries_and_skills(runtime: Runtime, namespace: str) -> None:
    ids = remember(
        runtime,
        namespace,
        NewMemory(content="Ada works at Initech."),
        NewMemory(content="Ada is allergic to peanuts."),
        NewMemory(content="Ada prefers short answers.", memory_type="preference"),
        NewMemory(content="Never share the staging password.", memory_type="negative"),
        NewMemory(content="The office coffee machine broke."),
        NewMemory(
            content="Release the mobile app",
            memory_type="procedure",
            steps=("bump the version", "build", "upload to the store"),
        ),
        NewMemory(
            content="Rotate the TLS certificates",
            memory_type="procedure",
            steps=("issue", "deploy"),
        ),
    )
    works, allergic, prefers, never, coffee, release, rotate = ids
    feedback.after_recall(runtime.store, namespace, [release], [release])
    run = registry.run_job(
        runtime.store, "profile", JobsConfig(), RunOptions(trigger="cli", namespace=namespace)
    )
    assert run.status == "succeeded" and run.counts["skills"] == 1
    found = profile.get(runtime.store, namespace)
    assert found.version == 1
    by_statement = {e.statement: e for e in found.entries}
    assert by_statement["Ada works at Initech."].kind == "identity"
    assert by_statement["Ada works at Initech."].attribute == "workplace"
    assert by_statement["Ada is allergic to peanuts."].kind == "constraint"
    assert by_statement["Never share the staging password."].kind == "constraint"
    assert by_statement["Ada prefers short answers."].kind == "preference"
    assert "The office coffee machine broke." not in by_statement
    assert [e.kind for e in found.entries][:1] == ["identity"]
    assert {e.sources[0] for e in found.entries} == {works, allergic, prefers, never}
    assert [s.source for s in found.skills] == [release]  # used; the other never was
    assert found.skills[0].steps == ("bump the version", "build", "upload to the store")
    assert coffee and rotate

    # The job changes employer: the newest statement is the entry, the older one its source;
    # a superseded source leaves the profile at once.
    [moved] = remember(runtime, namespace, NewMemory(content="Ada now works at Globex."))
    memories.supersede(runtime.store, namespace, works, moved, reason="new job")
    assert "Ada works at Initech." not in {
        e.statement for e in profile.get(runtime.store, namespace).entries
    }
    refreshed = profile.refresh(runtime.store, namespace)
    workplace = [e for e in refreshed.entries if e.attribute == "workplace"]
    assert [(e.statement, e.sources) for e in workplace] == [("Ada now works at Globex.", (moved,))]
    assert refreshed.version == 2

    query = (
        "query($ns: String!) { profile(namespace: $ns) { version entries { kind attribute "
        "statement sources } skills { name steps source uses } } }"
    )
    with TestClient(create_app(runtime=runtime)) as client:
        body = client.post("/graphql", json={"query": query, "variables": {"ns": namespace}}).json()
    got = body["data"]["profile"]
    assert got["version"] == 2 and got["skills"][0]["source"] == release
    assert {"kind": "identity", "attribute": "workplace", "statement": "Ada now works at Globex.",
            "sources": [moved]} in got["entries"]  # fmt: skip
