"""The signal scan: which phrases mark a turn as worth remembering, and which do not."""

from __future__ import annotations

import pytest

from hippograph.graph.write import signals
from hippograph.graph.write.signals import Signal


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I prefer dark mode in every editor.", "preference"),
        ("i really like spicy food", "preference"),
        ("I love hiking with my kids.", "preference"),
        ("I hate meetings before 10am.", "preference"),
        ("I don't like mushrooms on pizza.", "preference"),
        ("My favorite book is Dune.", "preference"),
        ("My favourite colour is green.", "preference"),
        ("I'd rather use Postgres than MySQL.", "preference"),
        ("Actually, the meeting is on Thursday.", "correction"),
        ("No, it's Melanie who paints, not Caroline.", "correction"),
        ("I meant the staging cluster.", "correction"),
        ("Correction: the budget is 40k.", "correction"),
        ("That's wrong, the file lives in src/.", "correction"),
        ("We decided to drop Python 3.9 support.", "decision"),
        ("Let's go with the blue logo.", "decision"),
        ("We'll use Neo4j for the graph.", "decision"),
        ("We agreed on weekly releases.", "decision"),
        ("I will send the slides tonight.", "commitment"),
        ("I'll review the PR tomorrow.", "commitment"),
        ("I promise to call mom on Sunday.", "commitment"),
        ("The deadline is March 3rd.", "commitment"),
        ("Never commit directly to main.", "negative"),
        ("Always run the linter before pushing.", "negative"),
        ("Don't use tabs in YAML files.", "negative"),
        ("Please do not email the client directly.", "negative"),
        ("Avoid global state in handlers.", "negative"),
        ("You must not log tokens.", "negative"),
        ("Remember that Bob is allergic to nuts.", "remember"),
        ("Note that the API is rate limited.", "remember"),
        ("Keep in mind the office closes at 6.", "remember"),
        ("Don't forget my birthday is in May.", "remember"),
        ("First, install the deps. Then run make test.", "procedure"),
        ("To deploy: first build the image, next push it, finally restart.", "procedure"),
        ("1. Clone the repo\n2. Run make\n3. Open a PR", "procedure"),
        ("Step 1: open settings.", "procedure"),
    ],
)
def test_signal_phrases(text: str, kind: str) -> None:
    result = signals.score(text)
    assert kind in result.kinds
    assert result.high is True


@pytest.mark.parametrize(
    "text",
    [
        "I went to the support group yesterday.",
        "How was your weekend?",
        "The weather in Lisbon was lovely.",
        "I'd like to ask you something.",
        "I don't know what to do about it.",
        "We visited Neverland ranch once; avoidance helps nobody.",
        "First we went to the beach, then we had dinner.",
        "Would you like some tea? What's your favorite?",
        "She deadlifted 100kg and is amazing.",
        "",
    ],
)
def test_ordinary_turns_are_low_signal(text: str) -> None:
    assert signals.score(text) == Signal(high=False, kinds=())


def test_typographic_apostrophes_and_case() -> None:
    assert signals.score("I’LL DO IT. DON’T USE TABS.").kinds == ("commitment", "negative")


def test_several_kinds_in_fixed_order() -> None:
    result = signals.score(
        "Actually I prefer tea. We decided to stop coffee; remember that I'll never drink it."
    )
    assert result.kinds == (
        "preference",
        "correction",
        "decision",
        "commitment",
        "negative",
        "remember",
    )
    assert result.kinds == tuple(k for k in signals.KINDS if k in result.kinds)


def test_word_boundaries() -> None:
    assert signals.score("Neverland, alwaysOn and avoidance are names.").kinds == ()
    assert signals.score("The deadlines slipped.").kinds == ("commitment",)
