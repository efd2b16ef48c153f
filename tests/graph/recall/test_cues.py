"""Query cues: named periods and the window index ranking tests moments against."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from hippograph.graph.recall import cues


def test_the_window_index_agrees_with_a_scan_of_every_window() -> None:
    rng = random.Random(11)
    base = datetime(2020, 1, 1, tzinfo=UTC)
    for _ in range(200):
        windows = []
        for _ in range(rng.randint(0, 12)):  # overlapping, nested and disjoint windows alike
            start = base + timedelta(days=rng.randint(0, 400))
            windows.append((start, start + timedelta(days=rng.randint(1, 90))))
        index = cues.WindowIndex(windows)
        assert bool(index) == bool(windows)
        for _ in range(50):
            moment = base + timedelta(days=rng.randint(-10, 500), hours=rng.randint(0, 23))
            assert (moment in index) == any(a <= moment < b for a, b in windows)


def test_a_month_without_a_year_matches_that_month_of_any_year() -> None:
    index = cues.WindowIndex(cues.date_windows("what happened in May?", 0))
    assert datetime(2023, 5, 17, tzinfo=UTC) in index
    assert datetime(1999, 5, 1, tzinfo=UTC) in index
    assert datetime(2023, 6, 1, tzinfo=UTC) not in index
    assert datetime(2023, 4, 30, 23, tzinfo=UTC) not in index
    assert not cues.WindowIndex(cues.date_windows("what does Ada drink?", 31))


def test_a_question_about_what_you_said_before_asks_the_addressee() -> None:
    for asked in (
        "How did you recommend managing the flow of requests?",
        "What approach did you recommend for weaving keywords into my resume?",
        "Which library had you suggested for the charts?",
        "Remind me what you suggested for the retries.",
        "What have you mentioned about caching?",
        "What was your advice on the deadline?",
        "Did you say the API key goes in an environment variable?",
    ):
        assert cues.asks_addressee(asked), asked
    for other in (
        "What would you suggest for the retries?",  # a request: its answer is to come
        "Can you explain how to calculate the probability?",
        "What did I mention about my profession?",
        "What did Caroline recommend to Melanie?",
        "Did you know the deadline moved?",
        "I told you my sister is visiting.",
    ):
        assert not cues.asks_addressee(other), other


def test_the_frame_that_reports_a_turn_leaves_the_searched_text() -> None:
    for asked, searched in (
        ("What profession did I mention I work in?", "What profession I work in?"),
        (
            "When did I say I was planning to meet my mentor at the library?",
            "When I was planning to meet my mentor at the library?",
        ),
        (
            "What dates did I mention for the visa application?",
            "What dates for the visa application?",
        ),
        ("What did I tell you about my sister?", "What about my sister?"),
        ("What have you told me about caching?", "What about caching?"),
        ("Which city had we discussed with you for the trip?", "Which city for the trip?"),
        # The speaker cue took the name out first ("How many games has John mentioned winning?").
        ("How many games has mentioned winning?", "How many games winning?"),
        ("Remind me what I said to you about the budget.", "Remind me what about the budget."),
    ):
        assert cues.unframe(asked) == searched, asked
    for kept in (
        "How did you recommend structuring my writing process?",  # advice: what is asked for
        "What recommendations has Nate received from Joanna?",
        "Have I ever practiced conditional probability problems before?",
        "What did the note on the fridge say?",  # a note says it, not a speaker
        "Did I mention?",  # nothing else to search: the question is kept whole
    ):
        assert cues.unframe(kept) == kept, kept
