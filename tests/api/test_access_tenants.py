"""Tenants kept apart: MCP over HTTP with a key bound to one namespace, and a property-based
probe (hypothesis) of random operations over two namespaces through the real API."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.api.keys import KeyStore
from hippograph.api.mcp import NAMESPACE_HEADER
from hippograph.graph.runtime import Runtime
from tests.api.test_mcp import failed, ok
from tests.conftest import wipe
from tests.live_server import serve_in_thread


def over_http(url: str, headers: dict[str, str], work: Callable[[Client], Awaitable[None]]) -> None:
    async def main() -> None:
        async with (
            httpx2.AsyncClient(headers=headers, timeout=120) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            await work(client)

    anyio.run(main)


def test_mcp_over_http_reaches_only_the_keys_namespace(runtime: Runtime, tmp_path: Path) -> None:
    a, b = f"mcp-a-{uuid.uuid4().hex[:8]}", f"mcp-b-{uuid.uuid4().hex[:8]}"
    keys = KeyStore(tmp_path)
    token = keys.create("agent", "write", [a]).token
    auth = {"Authorization": f"Bearer {token}"}
    app = create_app(runtime.settings.with_(data_dir=tmp_path), runtime=runtime)

    async def in_a(client: Client) -> None:
        done = await ok(client, "remember", {"memories": [{"content": "Gus grows tomatoes"}]})
        assert done["remembered"][0]["memory"]["namespace"] == a  # the key's one namespace

    def refused(code: str) -> Callable[[Client], Awaitable[None]]:
        async def work(client: Client) -> None:
            for tool, arguments in (("list", {}), ("remember", {"memories": [{"content": "x"}]})):
                body = await failed(client, tool, arguments)
                assert body["code"] == code, body

        return work

    try:
        with serve_in_thread(app) as base:
            url = f"{base}/mcp"
            over_http(url, auth, in_a)
            over_http(url, {**auth, NAMESPACE_HEADER: b}, refused("FORBIDDEN"))
            over_http(url, {NAMESPACE_HEADER: a}, refused("UNAUTHENTICATED"))
            bad = {"Authorization": "Bearer hg_000000000000_" + "y" * 43}
            over_http(url, bad, refused("UNAUTHENTICATED"))
        counted = runtime.store.driver.execute_query(
            "MATCH (m:Memory) WHERE m.namespace = $b RETURN count(m) AS n",
            b=b,
            database_=runtime.store.database,
        ).records[0]["n"]
        assert counted == 0
    finally:
        wipe(runtime.store, a)
        wipe(runtime.store, b)


# --- the property-based cross-tenant probe ------------------------------------------------

WORDS = ["tea", "coffee", "piano", "garden", "Lisbon", "chess", "bicycle", "soup", "jazz"]
Op = tuple[str, int, Any]
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("remember"), st.integers(0, 1), st.lists(st.sampled_from(WORDS),
                                                                  min_size=1, max_size=4)),
        st.tuples(st.just("forget"), st.integers(0, 1), st.integers(0, 10)),
        st.tuples(st.just("tag"), st.integers(0, 1), st.integers(0, 10)),
        st.tuples(st.just("feedback"), st.integers(0, 1), st.integers(0, 10)),
        st.tuples(st.just("supersede"), st.integers(0, 1), st.integers(0, 10)),
        st.tuples(st.just("link"), st.integers(0, 1), st.integers(0, 10)),
    ),
    min_size=1,
    max_size=6,
)  # fmt: skip

FIELDS = "items { id namespace content status confidence tags supersededBy }"
SNAPSHOT = f"""query($ns: String!) {{
  active: memories(namespace: $ns, first: 200, filter: {{status: ACTIVE}}) {{ {FIELDS} }}
  superseded: memories(namespace: $ns, first: 200, filter: {{status: SUPERSEDED}}) {{ {FIELDS} }}
  tags(namespace: $ns) {{ name count }}
}}"""


class Probe:
    """Two namespaces, an admin key and a write key per namespace; every operation goes
    through the real app, each addressed to one namespace with ids drawn from both."""

    def __init__(self, client: TestClient, tokens: dict[str, str], names: tuple[str, str]):
        self.client, self.tokens, self.names = client, tokens, names
        self.ids: list[tuple[int, str]] = []  # (namespace index, id)

    def call(self, query: str, token: str, **variables: Any) -> dict[str, Any]:
        response = self.client.post(
            "/graphql",
            json={"query": query, "variables": variables},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 200
        body: dict[str, Any] = response.json()
        for error in body.get("errors") or []:
            assert error["extensions"]["code"] in ("NOT_FOUND", "FORBIDDEN", "BAD_INPUT",
                                                   "CONFLICT", "SUPERSEDE_CYCLE"), body  # fmt: skip
        return body

    def snapshot(self, side: int) -> Any:
        body = self.call(SNAPSHOT, self.tokens["admin"], ns=self.names[side])
        assert not body.get("errors"), body
        found = body["data"]["active"]["items"] + body["data"]["superseded"]["items"]
        items = sorted(found, key=lambda m: m["id"])
        return items, sorted((t["name"], t["count"]) for t in body["data"]["tags"])

    def pick(self, n: int) -> str:
        return self.ids[n % len(self.ids)][1] if self.ids else str(uuid.uuid4())

    def apply(self, op: Op) -> int:
        kind, side, arg = op
        ns, token = self.names[side], self.tokens[str(side)]
        if kind == "remember":
            body = self.call(
                "mutation($ns: String!, $c: String!) { remember(namespace: $ns, "
                "memory: {content: $c, tags: [\"probe\"]}) { memory { id namespace } } }",
                token, ns=ns, c=f"{' '.join(arg)} {uuid.uuid4().hex[:6]}",
            )  # fmt: skip
            memory = body["data"]["remember"]["memory"]
            assert memory["namespace"] == ns
            self.ids.append((side, memory["id"]))
        elif kind == "forget":
            self.call("mutation($ns: String!, $id: ID!) { forget(namespace: $ns, id: $id) }",
                      token, ns=ns, id=self.pick(arg))  # fmt: skip
        elif kind == "tag":
            self.call("mutation($ns: String!, $id: ID!) { tag(namespace: $ns, id: $id, "
                      "tags: [\"t\"]) { id } }", token, ns=ns, id=self.pick(arg))  # fmt: skip
        elif kind == "feedback":
            self.call("mutation($ns: String!, $id: ID!) { feedback(namespace: $ns, "
                      "memoryId: $id, helpful: true) { confidence } }", token, ns=ns,
                      id=self.pick(arg))  # fmt: skip
        elif kind == "supersede":
            self.call("mutation($ns: String!, $o: ID!, $n: ID!) { supersede(namespace: $ns, "
                      "oldId: $o, newId: $n) { id } }", token, ns=ns, o=self.pick(arg),
                      n=self.pick(arg + 1))  # fmt: skip
        else:
            self.call("mutation($ns: String!, $f: ID!, $t: ID!) { link(namespace: $ns, "
                      "fromId: $f, toId: $t, relation: RELATES_TO) { weight } }", token, ns=ns,
                      f=self.pick(arg), t=self.pick(arg + 1))  # fmt: skip
        return side


@pytest.fixture(scope="module")
def probe(arcadedb_runtime: Runtime, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Probe]:
    runtime = arcadedb_runtime
    keys_dir = tmp_path_factory.mktemp("probe-keys")
    names = (f"probe-a-{uuid.uuid4().hex[:8]}", f"probe-b-{uuid.uuid4().hex[:8]}")
    keys = KeyStore(keys_dir)
    tokens = {
        "admin": keys.create("admin", "admin", ["*"]).token,
        "0": keys.create("a", "write", [names[0]]).token,
        "1": keys.create("b", "write", [names[1]]).token,
    }
    app = create_app(runtime.settings.with_(data_dir=keys_dir), runtime=runtime)
    with TestClient(app) as client:
        yield Probe(client, tokens, names)
    for ns in names:
        wipe(runtime.store, ns)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(ops=OPS)
def test_random_operations_never_cross_tenants(probe: Probe, ops: list[Op]) -> None:
    for op in ops:
        other = 1 - op[1]
        before = probe.snapshot(other)
        probe.apply(op)
        assert probe.snapshot(other) == before, op  # nothing of one changes through the other
    for side in (0, 1):
        items, _ = probe.snapshot(side)
        assert all(m["namespace"] == probe.names[side] for m in items)
        # With a key bound to one namespace, nothing of the other is reachable.
        other_token = probe.tokens[str(1 - side)]
        for _, memory_id in [i for i in probe.ids if i[0] == side][:3]:
            body = probe.call(
                "query($ns: String!, $id: ID!) { memory(namespace: $ns, id: $id) { id } }",
                other_token, ns=probe.names[1 - side], id=memory_id,
            )  # fmt: skip
            assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND"
            denied = probe.call(
                "query($ns: String!) { memories(namespace: $ns) { items { id } } }",
                other_token, ns=probe.names[side],
            )  # fmt: skip
            assert denied["errors"][0]["extensions"]["code"] == "FORBIDDEN"
