"""The entity operations through hippograph.client against the real app (TestClient: the
lifespan runs), with typed records and typed errors."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from hippograph.api.app import create_app
from hippograph.client import Client, InvalidInput, NewMemory, NotFound
from hippograph.client.entity_views import EntityView
from hippograph.graph.runtime import Runtime


@pytest.fixture
def client(runtime: Runtime, namespace: str) -> Iterator[Client]:
    with TestClient(create_app(runtime=runtime)) as http:
        yield Client("/graphql", namespace=namespace, http=http)


def test_everything_about_a_person_through_the_client(client: Client) -> None:
    client.remember(
        NewMemory(content="Tom works at Acme as a welder."),
        NewMemory(content="Tom moved to Lyon in March."),
    )
    client.remember(NewMemory(content="Tom no longer works at Acme."))
    view = client.entity("Tom", types=["WORKS_AT"])
    assert isinstance(view, EntityView) and view.entity.kind == "person"
    assert [(r.other_name, r.until is None) for r in view.relationships] == [("Acme", False)]
    assert {e.memory.content for e in view.timeline} == {
        "Tom works at Acme as a welder.",
        "Tom moved to Lyon in March.",
        "Tom no longer works at Acme.",
    }
    assert {e.name for e in client.entities(kind="location")} == {"Lyon"}
    knows = client.relate("Tom", "knows", "Priya", kind="person")
    assert [(r.type, r.other_name, r.source) for r in knows] == [("KNOWS", "Priya", "caller")]
    kept = client.merge_entities("Priya", "Tom", reason="test")
    assert kept.name == "Tom"
    assert client.entity(entity_id=kept.uid).merged[0].name == "Priya"
    priya = client.entity("Priya").merged[0].uid
    assert client.split_entity(priya).merged_into is None
    with pytest.raises(InvalidInput) as bad:
        client.relate("Tom", "knows-well", "Priya")
    assert bad.value.field == "type"
    with pytest.raises(NotFound):
        client.entity("Nobody")


def test_an_integrator_defines_entities_and_relates_them_by_id(client: Client) -> None:
    ana = client.define_entity("Ana Silva", kind="person", description="The user's sister")
    porto = client.define_entity("Porto", kind="location")
    assert (ana.kind, ana.description, porto.kind) == ("person", "The user's sister", "location")
    held = client.relate(ana.uid, "LIVES_IN", porto.uid)
    assert [(r.type, r.other_uid, r.other_name) for r in held] == [("LIVES_IN", porto.uid, "Porto")]
    view = client.entity(entity_id=ana.uid)
    assert view.entity.description == "The user's sister"
    assert [r.other_name for r in view.relationships] == ["Porto"]
    with pytest.raises(InvalidInput) as bad:
        client.define_entity("Ana Silva", kind="Not a kind!")
    assert bad.value.field == "kind"
