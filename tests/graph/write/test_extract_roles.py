"""What the offline builder makes of a conversation with roles (write/extract.py ``stated``):
the user's statements, not the assistant's chatter; rules only, no engine."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from hippograph.graph.write.extract import Dialogue, ExtractedFact, TurnText, extract_offline

SAID_AT = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def told(*turns: tuple[str, str]) -> list[ExtractedFact]:
    """Every fact of ``turns`` (role, text), read in order as one conversation."""
    dialogue = Dialogue()
    return [
        fact
        for i, (role, text) in enumerate(turns)
        for fact in extract_offline(TurnText(role, text, SAID_AT, "s1", i, role=role), dialogue)
    ]


def contents(*turns: tuple[str, str]) -> list[str]:
    return [f.content for f in told(*turns)]


@pytest.mark.parametrize(
    "text",
    [
        "Noted. Any hotel preferences?",
        "Of course, I'll avoid anything with peanuts.",
        "Got it, you live in Porto now.",
        "So you'd like a flight from Madrid to Munich on the 9th.",
        "You might enjoy the Alfama walking tour too!",
        "Bye Tariq, have a good day!",
        "I also recall a surprise party for Leila at the rooftop bar.",
        "Sounds good.",
    ],
)
def test_the_assistants_chatter_becomes_nothing(text: str) -> None:
    assert contents(("user", "I'm allergic to peanuts."), ("assistant", text)) == [
        "The user is allergic to peanuts."
    ]


def test_what_the_assistant_tells_is_kept_as_the_assistants() -> None:
    said = "The Vatican Museums are closed on Sundays, so plan your visit for Saturday."
    assert contents(("assistant", said)) == [f"Assistant: {said}"]


def test_an_assistant_sentence_made_of_the_users_words_is_an_echo() -> None:
    assert contents(
        ("user", "Finance gave us 150 euros per person, drinks included."),
        ("assistant", "150 euros per person with drinks, noted."),
    ) == ["The user: Finance gave us 150 euros per person, drinks included."]


@pytest.mark.parametrize("text", ["Yes, please.", "Marco is off. Ciao!", "Of course.", "Maybe!"])
def test_the_users_replies_that_say_nothing_become_nothing(text: str) -> None:
    assert contents(("user", text)) == []


def test_tool_and_system_turns_are_the_logs_not_memories() -> None:
    assert contents(("tool", '{"temperature": 21}'), ("system", "You are a helpful agent.")) == []


def test_the_users_questions_are_requests_and_a_statement_before_one_is_kept() -> None:
    assert contents(
        ("user", "What should I cook tonight?"),
        ("user", "I'm flying to Rome on Friday, any tips?"),
    ) == ["The user is flying to Rome on Friday."]


def test_a_self_introduction_names_the_user_and_what_they_say() -> None:
    facts = told(("user", "Salut! I'm Chloé, I live in Lyon."), ("user", "I'm vegan."))
    assert [f.content for f in facts] == [
        "The user's name is Chloé.",
        "Chloé lives in Lyon.",
        "Chloé is vegan.",
    ]


def test_the_assistant_addressing_the_user_tells_their_name() -> None:
    assert contents(
        ("assistant", "Of course, Sofia. What's the occasion?"),
        ("user", "My birthday is on 14 March."),
    ) == ["The user's name is Sofia.", "Sofia's birthday is on 14 March."]


def test_a_leading_pronoun_is_the_person_last_introduced() -> None:
    assert contents(
        ("user", "I'm meeting my old college friend Fatima next week."),
        ("user", "She has a son, Idris."),
        ("user", "He's into dinosaurs."),
    )[1:] == ["The user: Fatima has a son, Idris.", "The user: Idris is into dinosaurs."]


def test_a_number_corrected_by_reference_rewrites_the_statement_it_corrects() -> None:
    facts = told(
        ("user", "Finance gave us 150 euros per person, drinks included."),
        ("user", "Actually it's 200 now, they approved the extra."),
    )
    assert facts[-1].memory_type == "correction"
    assert facts[-1].content.startswith("The user: Finance gave us 200 euros per person")


@pytest.mark.parametrize(
    ("text", "memory_type"),
    [
        ("Never book overnight layovers for me.", "negative"),
        ("Always include version numbers when I ask about software dependencies.", "preference"),
        ("I always go to the gym on Tuesdays.", "fact"),
    ],
)
def test_a_rule_is_an_imperative_and_an_instruction_a_preference(
    text: str, memory_type: str
) -> None:
    [fact] = told(("user", text))
    assert fact.memory_type == memory_type


def test_a_transcript_without_roles_keeps_every_turn() -> None:
    # LoCoMo-style speakers: a short answer is kept (it may be the evidence).
    facts = extract_offline(TurnText("Caroline", "Yes", SAID_AT, "s1", 0))
    assert [f.content for f in facts] == ["Caroline: Yes"]
