"""Cues a query carries beyond its words: the speakers it names and the dates it mentions.

A question about one person ("What martial arts has John done?") names them because it is
*about* them, not because the answer repeats the name: the name is taken out of the searched
text and becomes a speaker cue instead. Dates ("in June", "May 3, 2023", "in 2022") become
time windows, widened afterwards because people talk about an event in the weeks after it.
A question about what the one it is put to said before ("How did you recommend ...?", "what you
suggested", "your advice") points at that side of the conversation (``asks_addressee``): in
a person's memory of working with an assistant, the assistant's answers.
A question about a conversation reports what was said ("What profession did I mention I work
in?", "When did I say I would meet her?"): the reporting frame ("did I mention") tells how the
fact came up, not what it is about, and leaves the searched text (``unframe``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

_MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
_MONTHS = {name: number for number, name in enumerate(_MONTH_NAMES, start=1)}
_DATE = re.compile(
    r"\b(?:(\d{1,2})\s+)?(" + "|".join(_MONTHS) + r")(?:\s+(\d{1,2}))?(?:,?\s+(\d{4}))?\b"
    r"|\b(?:in|of|during)\s+((?:19|20)\d{2})\b",
    re.IGNORECASE,
)
_SPACE = re.compile(r"\s+")
_WORDLIKE = re.compile(r"\w")
# What a speaker does with advice or information, as a question reports it of "you": "did you
# recommend", "had you said"; "you suggested", "you've mentioned"; "your advice".
_REPORTING = (
    "recommend", "suggest", "advise", "propose", "say", "mention", "tell", "explain", "outline",
    "describe", "share", "note", "state", "give", "warn",
)  # fmt: skip
_REPORTED = (
    "recommended", "suggested", "advised", "proposed", "said", "mentioned", "told", "explained",
    "outlined", "described", "shared", "noted", "stated", "gave", "given", "warned",
)  # fmt: skip
_ADDRESSEE = re.compile(
    rf"\b(?:did|had) you\b[^?.!,;]{{0,30}}?\b(?:{'|'.join(_REPORTING)})\b"
    rf"|\byou(?:'ve| have| had)? (?:{'|'.join(_REPORTED)})\b"
    r"|\byour (?:advice|recommendations?|suggestions?|proposals?|tips?|explanation)\b",
    re.IGNORECASE,
)
# Verbs of saying, as a question reports a turn of the conversation: "did I mention", "have you
# told me", "I said", "we discussed". Not the verbs of advice ("did you recommend"): those carry
# what a question asks for (the advice), and the addressee cue reads them.
_SAYING = (
    "mention", "say", "tell", "talk", "discuss", "note", "state", "share", "bring up",
    "mentioned", "said", "told", "talked", "discussed", "noted", "stated", "shared", "brought up",
)  # fmt: skip
_SAYING_ALTERNATIVES = "|".join(verb.replace(" ", r"\s+") for verb in _SAYING)
# An auxiliary with or without its subject ("did I mention"; "has mentioned" once the speaker
# cue took the name out), or a subject with or without an auxiliary ("I said", "you've told"),
# then the verb and whom it was said to ("told you", "said to me").
_FRAME = re.compile(
    r"\b(?:(?:did|do|does|have|has|had)\s+(?:(?:i|you|we|he|she|they)\s+)?"
    r"|(?:i|you|we|he|she|they)(?:'ve|\s+have|\s+had)?\s+)"
    r"(?:ever\s+|just\s+|already\s+|previously\s+|first\s+)?"
    rf"(?:{_SAYING_ALTERNATIVES})\b"
    r"(?:\s+(?:to\s+|with\s+)?(?:you|me)\b)?",
    re.IGNORECASE,
)
Window = tuple[datetime, datetime]


def named_speakers(query: str, speakers: Iterable[str]) -> frozenset[str]:
    """The speakers (lower-case names) that ``query`` mentions as whole words."""
    lowered = query.lower()
    return frozenset(
        s for s in set(speakers) if s and re.search(rf"\b{re.escape(s.lower())}\b", lowered)
    )


def focus(query: str, speakers: Iterable[str]) -> tuple[str, frozenset[str]]:
    """The text to embed and full-text search, and the speakers the query names."""
    named = named_speakers(query, speakers)
    text = query
    for name in named:
        text = re.sub(rf"\b{re.escape(name)}(?:'s)?\b", " ", text, flags=re.IGNORECASE)
    text = _SPACE.sub(" ", text).strip()
    return (text or query), named


def unframe(query: str) -> str:
    """``query`` without the frame that reports a turn ("did I mention", "I said", "have you
    told me"): "What profession did I mention I work in?" searches "What profession I work in?".
    Said to a memory of a conversation, those words match every turn that reports something
    ("as you mentioned, ..."), and pull the question's embedding toward them."""
    text = _SPACE.sub(" ", _FRAME.sub(" ", query)).strip()
    return text if _WORDLIKE.search(text) else query


def asks_addressee(query: str) -> bool:
    """Whether ``query`` asks what the one it is put to said or advised before (past tense:
    "How did you recommend ...", "what you suggested"; not a request such as "What would you
    suggest?", whose answer is to come)."""
    return _ADDRESSEE.search(query) is not None


def date_windows(query: str, slack_days: int) -> list[Window]:
    """Periods the query names, each widened by ``slack_days`` after its end (UTC)."""
    windows: list[Window] = []
    for m in _DATE.finditer(query):
        day_a, month, day_b, year, year_only = m.groups()
        if year_only:
            start = datetime(int(year_only), 1, 1, tzinfo=UTC)
            end = datetime(int(year_only) + 1, 1, 1, tzinfo=UTC)
            windows.append((start, end + timedelta(days=slack_days)))
            continue
        month_no = _MONTHS[month.lower()]
        years = [int(year)] if year else list(range(1990, 2100))
        day = day_a or day_b
        for y in years:
            if day:
                start = datetime(y, month_no, min(int(day), 28), tzinfo=UTC)
                end = start + timedelta(days=1)
            else:
                start = datetime(y, month_no, 1, tzinfo=UTC)
                end = datetime(y + month_no // 12, month_no % 12 + 1, 1, tzinfo=UTC)
            windows.append((start, end + timedelta(days=slack_days)))
    return windows


class WindowIndex:
    """Whether a moment lies inside any of the windows (``moment in index``), for many moments
    against many windows (a month named without a year stands for 110 of them): a moment is
    inside one iff the latest end among the windows that start at or before it lies after it,
    so a binary search replaces a scan per moment."""

    def __init__(self, windows: list[Window]) -> None:
        ordered = sorted(windows)
        self._starts = [a for a, _ in ordered]
        self._reach: list[datetime] = []  # the latest end among the first i + 1 windows
        for _, end in ordered:
            self._reach.append(max(end, self._reach[-1]) if self._reach else end)

    def __bool__(self) -> bool:
        return bool(self._starts)

    def __contains__(self, moment: datetime) -> bool:
        i = bisect.bisect_right(self._starts, moment)
        return i > 0 and self._reach[i - 1] > moment
