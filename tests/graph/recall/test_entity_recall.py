"""Recall follows entities: a memory that mentions an entity the context names (by name or by
the alias it was introduced with) is a candidate whatever its words, and a shared entity is an
edge expansion follows; the ``no-entities`` recipe turns both off."""

from __future__ import annotations

from hippograph.graph.model import NewMemory
from hippograph.graph.recall import retrieval
from hippograph.graph.recall.recipes import DEFAULT_CASCADE, ENTITIES, NO_ENTITIES
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath

FILLER = [
    "The user prefers window seats on long flights.",
    "The user is learning to bake sourdough bread.",
    "The user's favourite film is Spirited Away.",
    "The user runs 5k every Saturday morning.",
    "The user needs to renew the passport before June.",
    "The user plays the cello in a community orchestra.",
]


def _kinds(rt: Runtime, ns: str, context: str, config: object) -> dict[str, tuple[str, ...]]:
    result = retrieval.recall(
        rt.store, rt.embedder, ns,
        retrieval.RecallRequest(context=context, k=10, explain=True, include_gap=True),
        config,  # type: ignore[arg-type]
    )  # fmt: skip
    return {
        i.memory.content: i.explanation.seed_kinds if i.explanation else () for i in result.items
    }


def test_a_named_entity_seeds_what_mentions_it(runtime: Runtime, namespace: str) -> None:
    items = [
        "Biscuit will stay with my sister Ana during the trip.",
        "Biscuit is our dog, a very old beagle.",
        *FILLER,
    ]
    writepath.remember(
        runtime.store, runtime.embedder, namespace,
        [NewMemory(content=t) for t in items], policy=runtime.policy,
    )  # fmt: skip
    question = "Who looks after our dog while we travel?"
    on = _kinds(runtime, namespace, question, ENTITIES)
    off = _kinds(runtime, namespace, question, NO_ENTITIES)
    stay = "Biscuit will stay with my sister Ana during the trip."
    # "our dog" is the alias Biscuit was introduced with: what mentions Biscuit is a seed.
    assert "entity" in on[stay]
    assert all("entity" not in kinds for kinds in off.values())
    assert NO_ENTITIES == DEFAULT_CASCADE  # off by default (docs/research/entities.md)
    ana = _kinds(runtime, namespace, "What do I know about Ana?", ENTITIES)
    assert "entity" in ana[stay]
