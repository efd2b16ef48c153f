"""The core block on the embedded engine: promoted by evidence, stable, kept with its changes,
chosen by a local OpenAI-compatible server when configured (the rule when it misbehaves), shown
first in the context bundle and over GraphQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

import pytest
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.graph import memories
from hippograph.graph.model import NewMemory
from hippograph.graph.models.llm import ChatClient, LLMConfig
from hippograph.graph.recall import bundle, feedback
from hippograph.graph.runtime import Runtime
from hippograph.graph.upkeep import core
from hippograph.graph.write import writepath
from hippograph.jobs import registry
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import RunOptions
from tests.graph.llm_server import Endpoint, serve


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    yield from serve()


def remember(rt: Runtime, ns: str, *items: NewMemory) -> list[str]:
    results = writepath.remember(rt.store, rt.embedder, ns, list(items), policy=rt.policy)
    return [r.memory.id for r in results]


@pytest.fixture
def seeded(runtime: Runtime, namespace: str) -> dict[str, str]:
    ids = remember(
        runtime,
        namespace,
        NewMemory(content="Never push to main without a review.", memory_type="negative",
                  trigger_patterns=("push",)),
        NewMemory(content="The product is called Orbit, not Orbital.", memory_type="correction"),
        NewMemory(content="Ada prefers answers with the code first.", memory_type="preference"),
        NewMemory(content="The staging cluster runs in Frankfurt."),
        NewMemory(content="The team's standup is at 9:30."),
        NewMemory(content="Ada once visited Lisbon in 2019."),
    )  # fmt: skip
    names = ["rule", "correction", "preference", "used_twice", "used_once", "never_used"]
    by = dict(zip(names, ids, strict=True))
    for used in (["used_twice", "used_once"], ["used_twice"]):
        ids_used = [by[n] for n in used]
        feedback.after_recall(runtime.store, namespace, ids_used, ids_used)
    return by


def test_the_rule_promotes_by_type_and_evidence(
    runtime: Runtime, namespace: str, seeded: dict[str, str]
) -> None:
    change = core.recompute(runtime.store, namespace)
    assert change is not None and change.version == 1 and change.decider == "rule"
    block = core.get(runtime.store, namespace)
    ids = [m.id for m in block.memories]
    assert set(ids) == {seeded[n] for n in ("rule", "correction", "preference", "used_twice")}
    assert ids[0] == seeded["rule"]  # negative rules weigh most
    assert set(change.added) == set(ids) and change.removed == ()
    # Nothing changed: nothing written, the block and its history stay as they are.
    assert core.recompute(runtime.store, namespace) is None
    assert [c.version for c in core.changes(runtime.store, namespace)] == [1]
    # A smaller block keeps the best; the change records what left.
    small = core.recompute(runtime.store, namespace, replace(core.DEFAULT_CORE, size=2))
    assert small is not None and len(small.removed) == 2 and small.version == 2
    assert [c.version for c in core.changes(runtime.store, namespace)] == [2, 1]


def test_a_superseded_member_leaves_at_once(
    runtime: Runtime, namespace: str, seeded: dict[str, str]
) -> None:
    core.recompute(runtime.store, namespace)
    [newer] = remember(
        runtime,
        namespace,
        NewMemory(
            content="Ada now prefers answers with a summary first.", memory_type="preference"
        ),
    )
    memories.supersede(runtime.store, namespace, seeded["preference"], newer, reason="changed")
    ids = [m.id for m in core.get(runtime.store, namespace).memories]
    assert seeded["preference"] not in ids
    change = core.recompute(runtime.store, namespace)
    assert change is not None and change.added == (newer,)
    assert change.removed == (seeded["preference"],)


def test_the_llm_chooses_and_a_bad_answer_falls_back_to_the_rule(
    runtime: Runtime, namespace: str, seeded: dict[str, str], endpoint: Endpoint
) -> None:
    client = ChatClient(LLMConfig(base_url=endpoint.url, model="m"))
    try:
        endpoint.content = json.dumps({"core": [seeded["correction"], seeded["rule"]]})
        change = core.recompute(runtime.store, namespace, client=client)
        assert change is not None and change.decider == "llm"
        block = core.get(runtime.store, namespace)
        assert [m.id for m in block.memories] == [seeded["correction"], seeded["rule"]]
        sent = endpoint.requests[-1][2]["messages"][1]["content"]
        assert seeded["used_twice"] in sent and seeded["never_used"] not in sent
        for bad in ('{"core": ["not-a-candidate"]}', '{"core": "x"}', "not json", '{"a": 1}'):
            endpoint.content = bad
            fallback = core.recompute(runtime.store, namespace, client=client)
            block = core.get(runtime.store, namespace)
            assert block.decider == "rule (llm failed)"
            assert fallback is None or fallback.decider == "rule (llm failed)"
            assert len(block.memories) == 4
    finally:
        client.close()


def test_the_core_job_and_the_bundle_and_graphql(
    runtime: Runtime, namespace: str, seeded: dict[str, str]
) -> None:
    run = registry.run_job(
        runtime.store, "core", JobsConfig(), RunOptions(trigger="cli", namespace=namespace)
    )
    assert run.status == "succeeded"
    assert run.counts["changed"] == 1 and run.counts["added"] == 4
    found = bundle.build(
        runtime.store,
        runtime.embedder,
        namespace,
        bundle.ContextRequest(context="where does the staging cluster run", budget=400),
    )
    assert found.text.startswith("## Always in mind\n- [1] Never push to main")
    assert [i.section for i in found.items[:4]] == ["core"] * 4
    assert len({i.id for i in found.items}) == len(found.items)  # a core memory is not repeated
    tiny = bundle.build(
        runtime.store,
        runtime.embedder,
        namespace,
        bundle.ContextRequest(context="where does the staging cluster run", budget=40),
    )
    core_tokens = bundle.counter_for(runtime.embedder).count(tiny.text)
    assert core_tokens <= 40 and sum(i.section == "core" for i in tiny.items) < 4
    query = (
        "query($ns: String!) { core(namespace: $ns) { version decider memories { id } } "
        "coreChanges(namespace: $ns) { version added removed decider } }"
    )
    with TestClient(create_app(runtime=runtime)) as client:
        body = client.post("/graphql", json={"query": query, "variables": {"ns": namespace}}).json()
    assert body["data"]["core"]["version"] == 1 and body["data"]["core"]["decider"] == "rule"
    assert len(body["data"]["core"]["memories"]) == 4
    assert body["data"]["coreChanges"][0]["removed"] == []
