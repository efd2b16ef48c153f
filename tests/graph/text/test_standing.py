"""Which memories are standing instructions, and the request each applies to (text/standing.py):
rules only, no engine."""

from __future__ import annotations

import pytest

from hippograph.graph.text import standing


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            "User: Always include version numbers when I ask about software dependencies.",
            "software dependencies",
        ),
        ("Never use jargon when I ask for a summary of a paper.", "a summary of a paper"),
        ("Please format dates month-day-year whenever we discuss deadlines", "deadlines"),
        ("When I ask about pricing, always quote in euros.", "pricing"),
        ("Whenever I request code, don't skip the imports!", "code"),
        (
            "Thanks, that helps. Always use APA 7th edition when I ask about formatting "
            "references. What next?",
            "formatting references",
        ),
        ("Make sure to cite sources if I ask about statistics", "statistics"),
        ("Actually, always quote prices in euros when I ask about costs.", "costs"),
        ("From now on, never round numbers when we discuss the budget.", "the budget"),
        ("Oh, and when I ask for recipes, list the ingredients first.", "recipes"),
    ],
)
def test_the_condition_of_an_instruction(content: str, expected: str) -> None:
    assert standing.condition(content) == expected


@pytest.mark.parametrize(
    "content",
    [
        # statements about oneself, not instructions: they open with their subject
        "Melanie: I always smile when I talk about my kids.",
        "I never sleep well when I work late.",
        # an instruction without a condition applies to nothing in particular
        "Always be kind.",
        # the assistant's promise is not the person's rule
        "Assistant: Got it! When you ask about markup, I will always include semantic tags.",
        # a condition without a directive
        "When I ask about pricing, it is usually for the shop.",
        "",
    ],
)
def test_what_is_not_a_standing_instruction(content: str) -> None:
    assert standing.condition(content) is None
    assert standing.props("ns", content) == {"applies_when": None, "standing_in": None}


def test_a_long_sentence_is_not_read_as_an_instruction() -> None:
    story = "Always " + "and then we walked on " * 25 + "when I ask about the trip."
    assert len(story) > standing.MAX_SENTENCE_CHARS
    assert standing.condition(story) is None
