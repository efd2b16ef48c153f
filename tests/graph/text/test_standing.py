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


@pytest.mark.parametrize(
    ("content", "domain"),
    [
        ("Maya is allergic to peanuts.", "food"),
        ("I don't eat pork.", "food"),
        ("My partner Tom is vegetarian.", "food"),
        ("My budget for the laptop is 1200 euros.", "spending"),
        ("Never book overnight layovers for Sam.", "travel"),
        ("I'm afraid of flying.", "travel"),
        ("Yuki: Aisle, always aisle, I get up a lot.", "travel"),
        ("Don't schedule meetings for Carlos on Friday afternoons.", "scheduling"),
        ("Please don't call me, I can't take phone calls at work. Email only.", "contact"),
        ("I live in Germany, always use metric with me, never miles.", "units"),
        ("Always give times in SGT.", "times"),
        ("The user's name is Maya.", "identity"),
    ],
)
def test_a_constraint_stands_for_its_domain(content: str, domain: str) -> None:
    found = standing.condition(content)
    assert found is not None and found.startswith(f"{domain}:")
    assert standing.domain(found) is not None


@pytest.mark.parametrize(
    "content",
    [
        "Caroline went to a vegan restaurant last night.",
        "User: I'm building a budget tracker with Flask and SQLite for my family.",
        "We flew to Lisbon in May.",
        "I had a meeting with the design team.",
    ],
)
def test_a_topic_word_is_no_constraint(content: str) -> None:
    assert standing.condition(content) is None


@pytest.mark.parametrize(
    ("request_text", "domain"),
    [
        ("What should I cook for Maya tonight?", "food"),
        ("Find Sam a flight to Berlin for the conference.", "travel"),
        ("Find a slot for the review with Carlos", "scheduling"),
        ("Follow up with Mr. Okafor about his refund", "contact"),
    ],
)
def test_a_domain_covers_the_requests_of_its_kind(request_text: str, domain: str) -> None:
    [found] = [d for d in standing.DOMAINS if d.condition.startswith(f"{domain}:")]
    assert found.requests.search(request_text)


def test_the_users_name_stands_in_for_them_in_a_question() -> None:
    assert standing.user_name("The user's name is Maya.") == "Maya"
    assert standing.as_user("What should I cook for Maya?", "Maya") == (
        "What should I cook for the user?"
    )
    assert standing.as_user("What should I cook?", None) == "What should I cook?"


@pytest.mark.parametrize(
    "content",
    [
        "Assistant: Don't schedule meetings before 10am; your team will thank you.",
        "User: "
        + "We talked about the project plan and the release. " * 6
        + "Don't schedule meetings on Fridays.",
    ],
)
def test_an_assistants_advice_or_a_long_turn_is_no_constraint(content: str) -> None:
    assert standing.condition(content) is None
