"""``explain: true`` over the real app: every component of the score reaches the client, and
they recombine into the score (graph.recall.rank)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.client import Client, NewMemory
from hippograph.client.records import Explanation
from hippograph.graph import model
from hippograph.graph.recall.recall_config import CascadeConfig
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import formation

CONVERSATION = (
    ("Jon", "Gina, which dance do you practise these days?"),
    ("Gina", "I have been practising salsa every evening."),
    ("Jon", "I booked flights to Paris for the dance festival."),
    ("Gina", "The festival studio is near the river."),
)


@pytest.fixture
def client(runtime: Runtime, namespace: str) -> Iterator[Client]:
    with TestClient(create_app(runtime=runtime)) as http:
        yield Client("/graphql", namespace=namespace, http=http)


def recombined(e: Explanation, c: CascadeConfig) -> float:
    """The score from its components, as graph.recall.rank computes it (asks and addressee
    are answered already weighted; speaker and time as 0 or 1)."""
    w = c.score
    received = w.activation_weight * e.activation * e.length * e.restated
    base = e.relevance + received + w.speaker_weight * e.speaker + e.addressee
    base += w.time_weight * e.time - e.asks
    return base * e.recency * e.confidence * (1 + w.importance_weight * e.importance)


def test_the_explained_components_recombine_into_the_score(
    client: Client, runtime: Runtime, namespace: str
) -> None:
    client.remember(
        *[
            NewMemory(content=f"{who}: {text}",
                      source=model.Source(session_id="s1", messages=f"D1:{i + 1}"))
            for i, (who, text) in enumerate(CONVERSATION)
        ]
    )  # fmt: skip
    assert formation.link_adjacent(runtime.store, namespace) == len(CONVERSATION) - 1
    result = client.recall("What dance does Gina practise?", k=4, explain=True)
    explained = [(i.score, i.explanation) for i in result.items if i.explanation is not None]
    assert len(explained) == len(CONVERSATION)
    for score, e in explained:
        assert e.score == pytest.approx(score)
        assert score == pytest.approx(recombined(e, runtime.cascade), rel=1e-9, abs=1e-12)
    # The components the API once left out are answered, and matter here.
    parts = {e.seed: e for _, e in explained}
    asking = [e for e in parts.values() if e.asks > 0]
    assert len(asking) == 1 and asking[0].asks == runtime.cascade.score.question_discount
    assert any(e.speaker == 1.0 for e in parts.values())
    assert any(e.activation > 0 for e in parts.values())
    assert all(e.length > 0 and e.restated > 0 and e.addressee >= 0 for e in parts.values())
