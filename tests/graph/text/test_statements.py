"""The attributes a statement states and the changes between two (text/statements.py) that the
write decider supersedes on and recall orders by: rules only."""

from __future__ import annotations

import pytest

from hippograph.graph.text.statements import attributes, changes, subject


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The user's budget for the trip is 150 euros.", ("the budget for the trip", "150 euros")),
        ("Maya's phone number is 555-0101.", ("the phone number", "555-0101")),
        ("The deadline has been moved to March 10.", ("the deadline", "march 10")),
        ("We switched from Postgres to SQLite.", ("tool", "sqlite")),
        ("Chloé: We moved to Grenoble last week.", ("home", "grenoble")),
    ],
)
def test_what_a_statement_says_of_its_subject(text: str, expected: tuple[str, str]) -> None:
    assert expected in attributes(text)


@pytest.mark.parametrize(
    "text", ["The weather is lovely today.", "User: I'm building a budget tracker."]
)
def test_a_value_is_a_name_or_a_number(text: str) -> None:
    assert not attributes(text)


def test_an_announcement_is_no_speaker_and_names_are_unicode() -> None:
    assert subject("Quick update: Maya moved to Porto last month.") == "maya"
    assert subject("Chloé lives in Lyon.") == "chloé"


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("The user's budget is 200 euros now.", "The user's budget is 150 euros."),
        ("Quick update: Maya moved to Porto last month.", "Maya lives in Lisbon."),
        ("Chloé: We moved to Grenoble last week.", "Chloé lives in Lyon, in the Croix-Rousse."),
        (
            "The user: We switched from Postgres to SQLite last week.",
            "The user: We use Postgres for the orders service.",
        ),
    ],
)
def test_a_new_value_of_the_same_attribute_changes_it(new: str, old: str) -> None:
    assert changes(new, old)


@pytest.mark.parametrize(
    ("new", "old"),
    [
        # another subject
        ("Bob's budget is 200 euros now.", "The user's budget is 150 euros."),
        # no change said
        ("The user's budget is 200 euros.", "The user's budget is 150 euros."),
        # another attribute
        ("Maya moved to Porto last month.", "Maya works at Google."),
    ],
)
def test_what_is_no_change(new: str, old: str) -> None:
    assert not changes(new, old)
