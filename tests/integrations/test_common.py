"""What the integrations share: the client from the environment and the bundle's note."""

from __future__ import annotations

from hippograph.client import ContextBundle
from hippograph.integrations.common import NOTE_HEADER, client_from_env, note


def test_the_client_comes_from_the_environment() -> None:
    env = {"HIPPOGRAPH_URL": "http://memory:9000/graphql", "HIPPOGRAPH_NAMESPACE": "agent-7",
           "HIPPOGRAPH_API_KEY": "hg_abc_def"}  # fmt: skip
    with client_from_env(env) as memory:
        assert (memory.url, memory.namespace) == ("http://memory:9000/graphql", "agent-7")
        assert memory._http.headers["Authorization"] == "Bearer hg_abc_def"
    with client_from_env({}) as memory:
        assert (memory.url, memory.namespace) == ("http://127.0.0.1:8000/graphql", "default")
        assert "Authorization" not in memory._http.headers


def bundle(text: str) -> ContextBundle:
    return ContextBundle(text=text, tokens=0, budget=100, format="markdown", exact_tokens=True,
                         dropped=0, gap=not text, items=())  # fmt: skip


def test_an_empty_bundle_makes_no_note() -> None:
    assert note(bundle("")) is None and note(bundle("  \n")) is None
    assert note(bundle("## Facts\n- [1] Ana keeps bees")) == (
        f"{NOTE_HEADER}\n\n## Facts\n- [1] Ana keeps bees"
    )
