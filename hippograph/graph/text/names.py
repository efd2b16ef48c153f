"""Names in a text: capitalised runs (``New York``, ``Ana Silva``), acronyms (``LGBTQ``) and
technical casing (``PostgreSQL``, ``Neo4j``, ``GPT-4``, ``C++``), read from the casing alone.

A lone capitalised word opening a sentence is usually an ordinary word ("Yesterday", "Thanks"):
it is returned marked ``opening``; the tagger leaves it out, the entity finder keeps it only
when the namespace already knows an entity of that name (`text.entities`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from hippograph.graph.text.stopwords import STOPWORDS

_TOKEN = re.compile(r"[^\W_](?:[\w'’]|[.\-](?=[^\W_]))*(?:\+\+|#(?!\w))?")
_BOUNDARY = re.compile(r"[.!?:;\"“”()\[\]\n]")
# Both patterns are written so that each character has one place to go: the looser
# `[A-Z][A-Z0-9&]*[A-Z]...` and `.*[a-z].*[A-Z].*` backtrack quadratically on one long word
# (a 16 KiB unbroken string took seconds to tag).
_ACRONYM = re.compile(r"[A-Z][0-9&]*[A-Z][A-Z0-9&]*s?")
_MIXED_CASE = re.compile(r"[^a-z\n]*[a-z][^A-Z\n]*[A-Z].*")
_ALNUM = re.compile(r"[A-Za-z]+[-.]?[0-9][\w.\-]*")
_SYMBOLIC = re.compile(r"[A-Za-z]\+\+|[A-Za-z]#")
_DOTTED = re.compile(r"[A-Z][A-Za-z0-9]*\.[A-Za-z]{2,}")
_TITLES = frozenset({"mr", "mrs", "ms", "dr", "prof", "st", "mt"})
_NAME_PREFIXES = frozenset({"new", "great", "big", "little", "good", "old", "first", "last"})
_CONNECTORS = frozenset({"of", "de", "da", "del", "der", "van", "von", "la", "le", "du"})


@dataclass(frozen=True, slots=True)
class Name:
    """One name as the text writes it (a possessive "'s" dropped)."""

    text: str
    start: int  # where it starts in the text
    opening: bool  # a lone capitalised word opening a sentence: maybe an ordinary word
    technical: bool  # an acronym or technical casing (LGBTQ, PostgreSQL, GPT-4)


def strip_possessive(word: str) -> str:
    return word[:-2] if word.endswith("'s") else word


def found(text: str) -> list[Name]:
    """Every name of ``text``, in order, repeats kept."""
    shouting = _is_shouting(text)
    return list(_runs(text, shouting))


def _is_shouting(text: str) -> bool:
    letters = list(filter(str.isalpha, text))
    return len(letters) >= 8 and sum(map(str.isupper, letters)) > 0.6 * len(letters)


def _runs(text: str, shouting: bool) -> Iterator[Name]:
    run: list[tuple[str, int]] = []
    run_at_start = False
    previous_end = 0
    previous_word = ""
    for match in _TOKEN.finditer(text):
        word = strip_possessive(match.group().replace("’", "'"))
        gap = text[previous_end : match.start()]
        first, before = previous_end == 0, previous_word
        previous_end, previous_word = match.end(), word
        if not shouting and is_technical(word):
            yield Name(word, match.start(), opening=False, technical=True)
        if _is_title_case(word):
            # Only a capitalised word asks whether it opens a sentence.
            at_start = first or (
                _BOUNDARY.search(gap) is not None and before.lower() not in _TITLES
            )
            if run and (gap != " " or at_start):
                yield from _accepted(run, run_at_start)
                run = []
            if not run:
                run_at_start = at_start
            run.append((word, match.start()))
        elif run and gap == " " and word in _CONNECTORS:
            run.append((word, match.start()))
        elif run:
            yield from _accepted(run, run_at_start)
            run = []
    if run:
        yield from _accepted(run, run_at_start)


def _accepted(run: list[tuple[str, int]], at_start: bool) -> Iterator[Name]:
    words = [w for w, _ in run]
    start, end = 0, len(words)
    while start < end and _weak(words[start], words[start + 1 : end]):
        start, at_start = start + 1, False
    while end > start and (words[end - 1] in _CONNECTORS or words[end - 1].lower() in STOPWORDS):
        end -= 1
    if end > start:
        lone_opening = end - start == 1 and at_start
        yield Name(" ".join(words[start:end]), run[start][1], lone_opening, technical=False)


def _weak(word: str, rest: list[str]) -> bool:
    """Whether a run's first word is not part of the name ("The" Beatles, but "New" York)."""
    lower = word.lower()
    if lower in _TITLES:
        return True
    return lower in STOPWORDS and not (lower in _NAME_PREFIXES and rest)


def _is_title_case(word: str) -> bool:
    return word[0].isupper() and word[1:].islower() and word.isalpha()


# Words repeat across a batch (names, common words): each is judged once, like the tag names.
@functools.lru_cache(maxsize=65536)
def is_technical(word: str) -> bool:
    # Each pattern below needs an upper-case letter, a "+" or a "#": most words have none.
    if word.lower() in STOPWORDS or (word.islower() and "+" not in word and "#" not in word):
        return False
    return bool(
        _ACRONYM.fullmatch(word)
        or _SYMBOLIC.fullmatch(word)
        or _MIXED_CASE.fullmatch(word)
        or _DOTTED.fullmatch(word)
        or (_ALNUM.fullmatch(word) and any(c.isupper() for c in word))
    )
