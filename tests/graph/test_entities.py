"""Entities and their relationships against the embedded engine: found when memories are
written, resolved by name and alias, related, merged and split, erased with their memories."""

from __future__ import annotations

import pytest

from hippograph.graph import about, entities, memories
from hippograph.graph.errors import InvalidInput, NotFound
from hippograph.graph.model import NewMemory, Source
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import erasure, writepath


def remember(rt: Runtime, ns: str, *texts: str, session: str | None = None) -> list[str]:
    items = [
        NewMemory(content=t, source=Source(session_id=session, messages=str(i)))
        for i, t in enumerate(texts)
    ]
    found = writepath.remember(rt.store, rt.embedder, ns, items, policy=rt.policy)
    return [r.memory.id for r in found]


def test_a_memory_mentions_the_people_it_names_and_the_kinship_becomes_a_relationship(
    runtime: Runtime, namespace: str
) -> None:
    remember(runtime, namespace, "Biscuit will stay with my sister Ana during the trip.")
    remember(runtime, namespace, "Biscuit is our dog and he loves long walks.")
    ana = about.about(runtime.store, namespace, "Ana")
    assert ana.entity.kind == "person"
    assert "the user's sister" in ana.entity.aliases
    assert [(r.type, r.other_name, r.outgoing) for r in ana.relationships] == [
        ("SISTER_OF", "the user", True)
    ]
    # A lone word opening a sentence is a weak mention: kept once the dog is introduced.
    remember(runtime, namespace, "Biscuit needs a bath tomorrow.")
    biscuit = about.about(runtime.store, namespace, "biscuit")
    assert biscuit.entity.kind == "animal"
    assert [e.memory.content for e in biscuit.timeline] == [
        "Biscuit is our dog and he loves long walks.",
        "Biscuit needs a bath tomorrow.",
    ]
    # The alias finds her; said alone, "my sister" may be another sister: no mention.
    remember(runtime, namespace, "My sister is coming over on Friday.")
    again = about.about(runtime.store, namespace, "the user's sister")
    assert again.entity.uid == ana.entity.uid
    assert len(again.timeline) == 1
    # One has one mother: "my mom" alone names the mother introduced before.
    remember(runtime, namespace, "My mom Rosa turns seventy in June.")
    remember(runtime, namespace, "My mom called about the party.")
    rosa = about.about(runtime.store, namespace, "Rosa")
    assert [r.type for r in rosa.relationships] == ["MOTHER_OF"]
    assert len(rosa.timeline) == 2


def test_speakers_are_subjects_and_a_new_home_ends_the_old_one(
    runtime: Runtime, namespace: str
) -> None:
    remember(runtime, namespace, "Caroline: I live in Boston with my friend Mel.", session="s")
    remember(runtime, namespace, "Caroline: I moved to Denver last month!", session="s")
    caroline = about.about(runtime.store, namespace, "Caroline")
    assert [e.role for e in caroline.timeline] == ["subject", "subject"]
    homes = {r.other_name: r.until for r in caroline.relationships if r.type == "LIVES_IN"}
    assert set(homes) == {"Boston", "Denver"}
    assert homes["Denver"] is None and homes["Boston"] is not None
    current = entities.relationships(
        runtime.store, namespace, caroline.entity.uid, types=["lives_in"], current=True
    )
    assert [r.other_name for r in current] == ["Denver"]
    listed = entities.search(runtime.store, namespace, kind="location")
    assert {e.name for e in listed} == {"Boston", "Denver"}


def test_relate_validates_types_and_keeps_an_ended_relationship(
    runtime: Runtime, namespace: str
) -> None:
    found = entities.relate(runtime.store, namespace, "Tom", "works_at", "Acme", kind="person")
    assert [(r.type, r.other_name, r.until) for r in found] == [("WORKS_AT", "Acme", None)]
    ended = entities.relate(runtime.store, namespace, "Tom", "WORKS_AT", "Acme", ended=True)
    assert ended[0].until is not None
    with pytest.raises(InvalidInput) as bad:
        entities.relate(runtime.store, namespace, "Tom", "WORKS AT; DROP", "Acme")
    assert bad.value.field == "type"
    assert entities.search(runtime.store, namespace, query="acm")[0].name == "Acme"


def test_merge_is_undone_by_split(runtime: Runtime, namespace: str) -> None:
    remember(runtime, namespace, "Lunch with Ana Silva on Monday.", "Gave Ana the book back.")
    kept = entities.merge(runtime.store, namespace, "Ana", "Ana Silva", reason="same person")
    merged = about.about(runtime.store, namespace, "Ana")  # the merged one shows the kept one
    assert merged.entity.uid == kept and merged.entity.name == "Ana Silva"
    assert [m.name for m in merged.merged] == ["Ana"]
    assert len(merged.timeline) == 2
    with pytest.raises(InvalidInput):
        entities.merge(runtime.store, namespace, "Ana Silva", "Ana")
    entities.split(runtime.store, namespace, merged.merged[0].uid)
    apart = about.about(runtime.store, namespace, "Ana")
    assert apart.entity.name == "Ana" and len(apart.timeline) == 1
    with pytest.raises(NotFound):
        about.about(runtime.store, namespace, "Nobody Here")


def test_forget_and_erasure_take_entities_left_without_mentions(
    runtime: Runtime, namespace: str
) -> None:
    first, second = remember(
        runtime, namespace, "Tom works at Acme since spring.", "Tom plays chess with Priya."
    )
    assert {e.name for e in entities.search(runtime.store, namespace)} >= {"Tom", "Acme", "Priya"}
    memories.forget(runtime.store, namespace, first, hard=True)
    left = {e.name: e.mentions for e in entities.search(runtime.store, namespace)}
    assert left == {"Tom": 1, "Priya": 1}
    tom = entities.find(runtime.store, namespace, "Tom")
    assert entities.relationships(runtime.store, namespace, tom) == []
    report = erasure.erase(runtime.store, namespace, memory_ids=[second])
    assert report.entities == 2
    assert entities.search(runtime.store, namespace) == []


def test_a_caller_defines_an_entity_and_relates_entities_by_uid(
    runtime: Runtime, namespace: str
) -> None:
    acme = entities.define(
        runtime.store, namespace, "Acme Corp", kind="organisation", description="A tech company"
    )
    assert (acme.name, acme.kind, acme.description) == (
        "Acme Corp",
        "organisation",
        "A tech company",
    )
    assert acme.first_seen is not None and acme.mentions == 0
    # Defined again: the same node; a kind or description given replaces the old one.
    again = entities.define(runtime.store, namespace, "acme corp", description="Makes anvils")
    assert (again.uid, again.kind, again.description) == (acme.uid, "organisation", "Makes anvils")
    alice = entities.define(runtime.store, namespace, "Alice", kind="person")
    # By uid, both ends are the entities named, not new ones called by the uid.
    held = entities.relate(runtime.store, namespace, alice.uid, "WORKS_AT", acme.uid)
    assert [(r.other_uid, r.other_name) for r in held] == [(acme.uid, "Acme Corp")]
    assert {e.name for e in entities.search(runtime.store, namespace)} == {"Alice", "Acme Corp"}
    for bad, field in (
        ({"kind": "not a kind!"}, "kind"),
        ({"description": "x" * 2001}, "description"),
    ):
        with pytest.raises(InvalidInput) as refused:
            entities.define(runtime.store, namespace, "Bob", **bad)
        assert refused.value.field == field
    with pytest.raises(InvalidInput) as empty:
        entities.define(runtime.store, namespace, "!!!")
    assert empty.value.field == "name"
    assert [e.name for e in entities.search(runtime.store, namespace, query="bob")] == []


def test_a_stated_entity_outlives_its_last_mention_but_not_an_erasure(
    runtime: Runtime, namespace: str
) -> None:
    entities.define(runtime.store, namespace, "Priya", kind="person", description="A colleague")
    [said] = remember(runtime, namespace, "Priya plays chess on Sundays.")
    memories.forget(runtime.store, namespace, said, hard=True)
    kept = {e.name: e.mentions for e in entities.search(runtime.store, namespace)}
    assert kept == {"Priya": 0}
    [again] = remember(runtime, namespace, "Priya moved to the data team.")
    report = erasure.erase(runtime.store, namespace, memory_ids=[again])
    assert report.entities == 1
    assert entities.search(runtime.store, namespace) == []
