"""What a statement names and the relationships it states (text/entities.py), by rules."""

from __future__ import annotations

import pytest

from hippograph.graph.text.entities import Relation, canonical, find, relation_type


def _named(text: str, speaker: str | None = None) -> dict[str, tuple[str, str]]:
    return {m.name: (m.kind, m.role) for m in find(text, speaker).mentions if not m.weak}


def test_the_speaker_is_the_subject_and_a_relation_word_introduces_a_person() -> None:
    found = find("Melanie: Yesterday my friend Fatima and I visited Paris.", "Melanie")
    named = {m.name: m for m in found.mentions}
    assert named["Melanie"].role == "subject"
    assert named["Fatima"].aliases == ("melanie's friend",)
    assert (named["Fatima"].kind, named["Paris"].kind) == ("person", "location")
    assert found.relations == (Relation("Fatima", "FRIEND_OF", "Melanie"),)
    # "Yesterday" opens the sentence: no name unless the namespace knows one.
    assert "Yesterday" not in named


@pytest.mark.parametrize(
    "text",
    ["Ana is my sister.", "My sister Ana called.", "Ana, my sister, called.",
     "My older sister, Ana Silva, called."],
)  # fmt: skip
def test_kinship_is_read_in_every_order(text: str) -> None:
    found = find(text)
    assert [(r.type, r.target) for r in found.relations] == [("SISTER_OF", "the user")]
    assert found.relations[0].source in ("Ana", "Ana Silva")


def test_a_relation_word_alone_is_an_alias_to_resolve() -> None:
    (mine,) = [m for m in find("Caroline: My mom is visiting.", "Caroline").mentions
               if m.alias_only]  # fmt: skip
    assert mine.aliases == ("caroline's mother",)


def test_attributes_become_relationships_and_their_end_is_kept() -> None:
    assert find("Tom works at Acme").relations == (Relation("Tom", "WORKS_AT", "Acme"),)
    assert find("Tom no longer works at Acme").relations[0].ended
    moved = find("Caroline: I moved to New York City last year.", "Caroline")
    assert moved.relations == (Relation("Caroline", "LIVES_IN", "New York City"),)
    assert _named("Caroline: I moved to New York City last year.", "Caroline")["New York City"] == (
        "location",
        "object",
    )


def test_what_an_introduced_person_does_is_theirs_not_the_speakers() -> None:
    found = find("Caroline: my friend Mel works at Google", "Caroline")
    assert found.relations == (
        Relation("Mel", "FRIEND_OF", "Caroline"),
        Relation("Mel", "WORKS_AT", "Google"),
    )


def test_kinds_follow_the_words_around_a_name() -> None:
    named = _named("We went to the Pride Parade, then met Dr Jones at Central Park; Neo4j rocks")
    assert named["Pride Parade"][0] == "event"
    assert named["Central Park"][0] == "location"
    assert named["Jones"][0] == "person"
    assert named["Neo4j"][0] == "tool"


def test_the_users_name_is_an_alias_of_the_user() -> None:
    (maya,) = find("The user's name is Maya.").mentions
    assert (maya.name, maya.aliases) == ("Maya", ("the user",))


def test_canonical_names_and_types() -> None:
    assert canonical("  The Beatles’s ") == "beatles"
    assert canonical("the user") == "the user"
    assert [relation_type(w) for w in ("mum", "Dog", "co-worker", "boss")] == [
        "MOTHER_OF", "PET_OF", "COLLEAGUE_OF", "BOSS_OF",
    ]  # fmt: skip


def test_every_line_of_an_ordinary_corpus_reads_without_error() -> None:
    from pathlib import Path

    corpus = Path(__file__).parent / "corpus" / "ordinary.txt"
    lines = [line for line in corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    found = [find(line, "Sam") for line in lines]
    assert all(m.name and m.kind and m.role for f in found for m in f.mentions)
    assert sum(len(f.mentions) for f in found) >= len(lines)  # the speaker at least
