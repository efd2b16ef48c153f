"""The explorer's entity view in headless Chromium: people and things as nodes, the memories
that mention them on demand."""

from __future__ import annotations

import uuid

import pytest

from tests.browser.conftest import ARTIFACTS, PageRunner
from tests.browser.test_explore import gql, remember

pytestmark = pytest.mark.slow


def test_an_entity_is_drawn_with_its_relationships_and_memories(
    server_url: str, run_page: PageRunner
) -> None:
    ns = f"browser-{uuid.uuid4().hex[:8]}"
    said = [
        "My sister Ana lives in Porto and keeps bees.",
        "Ana moved to Lisbon in the spring.",
        "Ana sells honey at the Saturday market.",
    ]
    ids = [remember(server_url, ns, text, "FACT", []) for text in said]
    found = gql(server_url, "query($ns: String!) { entity(namespace: $ns, name: \"Ana\") { "
                "entity { uid } } }", ns=ns)  # fmt: skip
    ana = found["entity"]["entity"]["uid"]

    report = run_page(
        "explore_entities",
        screenshot="explore-entities.png",
        url=f"{server_url}/explore",
        namespace=ns,
        context="Where does Ana live?",
        entity="Ana",
    )
    result = report["result"]
    assert result["status"] == "ready"
    assert {e["text"].split()[0] for e in result["listed"]} >= {"Ana", "Porto", "Lisbon"}
    assert all(not k.startswith("entity:") for k in result["before"]), "drawn on demand only"
    assert f"entity:{ana}" in result["nodeKeys"]
    assert {f"memory:{i}" for i in ids} <= set(result["nodeKeys"])
    assert {f"MENTIONS memory:{i} entity:{ana}" for i in ids} <= set(result["edgeKeys"])
    related = [k for k in result["edgeKeys"] if k.startswith(f"RELATED entity:{ana} ")]
    assert {k.split()[-1] for k in related} == {"SISTER_OF", "LIVES_IN"}
    assert result["drawn"] == len(result["nodeKeys"])
    assert result["title"] == "person: Ana" and result["selected"] == f"entity:{ana}"
    assert "Ana LIVES_IN Lisbon" in result["relationships"]
    assert "Ana LIVES_IN Porto" in result["relationships"] and "until" in result["relationships"]
    assert "Ana SISTER_OF the user" in result["relationships"]
    assert all(text in result["timeline"] for text in said)
    assert "RELATED" in result["legend"] and "entity" in result["legend"]
    assert report["seen"]["consoleErrors"] == [] and report["seen"]["offsite"] == []
    shots = [ARTIFACTS / n for n in ("explore-entity.png", "explore-entities.png")]
    assert report["screenshots"] == [str(p) for p in shots]
    assert all(p.stat().st_size > 10_000 for p in shots)
