"""A restatement of a forgotten fact in other words (text/restate.py): rules and keys only."""

from __future__ import annotations

import pytest

from hippograph.graph.text import restate


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("My birthday is on 14 March.", "The user: My birthday is on 14 March, by the way."),
        ("My birthday is on 14 March.", "The user's birthday is on 14 March."),
        ("I'm allergic to peanuts.", "The user is allergic to peanuts."),
    ],
)
def test_the_neutral_form_writes_the_person_and_the_filler_away(a: str, b: str) -> None:
    assert restate.neutral(a) == restate.neutral(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("14 March", "the fourteenth of March"),
        ("the 21st", "the twenty-first"),
        ("68,000 a year", "68k a year"),
    ],
)
def test_numbers_are_compared_as_digits(a: str, b: str) -> None:
    assert restate.number_keys("ns", a) == restate.number_keys("ns", b)


def test_keys_are_salted_per_namespace_and_hold_no_text() -> None:
    keys = restate.number_keys("ns", "555-0147")
    assert keys and keys != restate.number_keys("other", "555-0147")
    assert not any("555" in k for k in keys)


def test_a_changed_value_or_another_subject_is_no_restatement() -> None:
    forgotten = restate.number_keys("ns", "My phone number is 555-1234.")
    new = restate.number_keys("ns", "My phone number is 555-9876.")
    assert not restate.restates(0.98, forgotten, new, [], [])
    sister = restate.relation_keys("ns", "My sister's birthday is on 14 March.")
    assert not restate.restates(0.95, [], [], [], sister)


def test_a_close_enough_restatement_is_one() -> None:
    keys = restate.number_keys("ns", "14 March")
    assert restate.restates(0.84, keys, keys, [], [])  # numbers held: a looser paraphrase
    assert not restate.restates(0.84, [], [], [], [])  # without numbers, only a close one
    assert restate.restates(0.9, [], [], [], [])
