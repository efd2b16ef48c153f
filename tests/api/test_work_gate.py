"""The bound on heavy operations (#21 part 2): with every slot taken, a heavy request waits at
most the queue time and is refused with OVERLOADED and Retry-After, having run nothing, while
/healthz and light reads answer at once; the slot frees when the work ends."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.graph.model import NewMemory
from hippograph.graph.models.llm import ChatClient, LLMConfig
from hippograph.graph.recall.verify import Verifier
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath
from tests.graph.llm_server import Endpoint, serve

RECALL = """query($ns: String!, $verify: Boolean!) {
  recall(namespace: $ns, context: "what tea does Ada drink", k: 3, verify: $verify,
         includeGap: true) { verification items { memory { id } } } }"""
MEMORY = "query($ns: String!, $id: ID!) { memory(namespace: $ns, id: $id) { content } }"
REMEMBER = """mutation($ns: String!) {
  remember(namespace: $ns, memory: {content: "Ada also likes mint tea."}) { memory { id } } }"""


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    yield from serve()


def post(client: TestClient, query: str, **variables: Any) -> tuple[dict[str, Any], Any]:
    response = client.post("/graphql", json={"query": query, "variables": variables})
    assert response.status_code == 200, response.text
    return dict(response.json()), response.headers


def test_a_full_gate_refuses_heavy_work_and_serves_the_rest(
    runtime: Runtime, namespace: str, endpoint: Endpoint
) -> None:
    tea = writepath.remember(
        runtime.store,
        runtime.embedder,
        namespace,
        [NewMemory(content="Ada drinks green tea every morning.")],
        policy=runtime.policy,
    )[0].memory.id
    llm = ChatClient(LLMConfig(base_url=endpoint.url, model="m", timeout_s=30))
    one_slot = dataclasses.replace(
        runtime,
        settings=runtime.settings.with_(max_concurrent_work=1, work_queue_s=0.5),
        verifier=Verifier(llm, top_m=8),
    )
    endpoint.content = json.dumps({"relevant": [tea]})
    endpoint.delay_s = 60  # the verifier's call holds the one slot until released
    try:
        with TestClient(create_app(runtime=one_slot)) as client:
            held: dict[str, Any] = {}
            first = threading.Thread(
                target=lambda: held.update(post(client, RECALL, ns=namespace, verify=True)[0])
            )
            first.start()
            deadline = time.monotonic() + 60
            while not endpoint.requests and time.monotonic() < deadline:
                time.sleep(0.05)
            assert endpoint.requests, "the first recall never reached the verifier"

            started = time.monotonic()
            refused, headers = post(client, RECALL, ns=namespace, verify=False)
            waited = time.monotonic() - started
            (error,) = refused["errors"]
            assert error["extensions"]["code"] == "OVERLOADED"
            assert "HIPPOGRAPH_MAX_CONCURRENT_WORK" in error["message"]
            assert headers["retry-after"] == "1"
            assert 0.4 <= waited < 5

            refused_write, _ = post(client, REMEMBER, ns=namespace)
            assert refused_write["data"]["remember"] is None
            assert refused_write["errors"][0]["extensions"]["code"] == "OVERLOADED"

            started = time.monotonic()
            health = client.get("/healthz")
            assert health.status_code == 200
            light, _ = post(client, MEMORY, ns=namespace, id=tea)
            assert time.monotonic() - started < 1.0
            assert light["data"]["memory"]["content"] == "Ada drinks green tea every morning."

            endpoint.release.set()
            first.join(60)
            assert held["data"]["recall"]["verification"] == "verified"
            after, _ = post(client, RECALL, ns=namespace, verify=False)
            assert [i["memory"]["id"] for i in after["data"]["recall"]["items"]] == [tea]
    finally:
        llm.close()
