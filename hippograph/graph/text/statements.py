"""What a statement says, read from its words alone: its subject, the single-valued attributes
it states (employer, home), negation and what a negation bears on, proper names, change and
correction cues, and word overlap between two statements. Pure functions of text, shared by the
offline write decider (``decide``) and consolidation's pair rules; ``memoized()`` caches them
within one batch.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from hippograph.graph.text.updates import is_change

# Word-share thresholds of the offline rules (the cosine ones are in ``decide``).
# A correction cue in the text ("actually" opens many an ordinary turn) must also restate the
# target: at least this share of the target's words are in the correction.
RESTATES_MIN = 0.6
# Two conversation turns ("Speaker: ...") are one memory only when each holds this share of
# the other's words: said again later is a new turn, whatever its embedding.
SAME_TURN_MIN = 0.8
# A memory superseded must be about little else: at most this many words (the rest of a long
# conversation turn would vanish with it). The same holds for a memory a correction rewrites or
# a contradiction may retire (``retirable``).
SUPERSEDED_MAX_WORDS = 30
# A contradiction says mostly the same words (roots, both ways).
CONTRADICT_MIN_OVERLAP = 0.6

# Letters of any script: "Chloé" is one word, not "chlo".
_WORD = re.compile(r"[^\W_](?:[^\W_]|')*")
_CORRECTION_CUE = re.compile(
    r"\b(?:actually|correction|i\s+meant|i\s+misspoke|scratch\s+that|to\s+be\s+precise"
    r"|that\s+was\s+wrong|i\s+was\s+wrong|not\s+\w+(?:\s+\w+)?\s*,?\s+but)\b"
    r"|,\s*not\s+[\w'-]+\s*[.!]?$",
    re.IGNORECASE,
)
_CORRECTION_WORDS = ("not", "actually", "correction", "meant", "misspoke", "scratch", "precise",
                     "wrong")  # fmt: skip
# Negation: one of these words, or any word ending in n't ("shan't", "needn't").
_NEGATIONS = frozenset({"not", "never", "no", "none", "nobody", "nothing", "cannot"})
_ANTONYMS: tuple[tuple[str, str], ...] = (
    ("like", "dislike"),
    ("love", "hate"),
    ("always", "never"),
    ("enable", "disable"),
    ("enabled", "disabled"),
    ("allow", "forbid"),
    ("allowed", "forbidden"),
    ("true", "false"),
    ("yes", "no"),
    ("before", "after"),
    ("accept", "reject"),
    ("include", "exclude"),
)
_LEADING_FILLER = frozenset({"actually", "correction", "now", "so", "well", "also", "update", "oh"})
# "Quick update: ...", "Correction: ...", "FYI: ...": an announcement, not a speaker's name.
_ANNOUNCEMENT = re.compile(
    r"(?i:(?:quick\s+|small\s+|an?\s+)?(?:update|correction|note|reminder|fyi|btw|heads\s+up"
    r"|news|change\s+of\s+plans?))"
)

# Single-valued attributes, the only changes the offline rules act on: a new employer or home
# replaces the old one. Each pattern captures the value after its verb. Everything else that
# "changes" in conversation ("I joined a group", "now I paint") adds to what was said before.
_VALUE = r"(?P<value>[\w'&.-]+(?:[ \t]+[\w'&.-]+){0,3})"
_ATTRIBUTES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "employer",
        re.compile(
            r"\b(?:works?|worked|working|employed|job|interns?|interning)\s+(?:at|for)\s+" + _VALUE,
            re.IGNORECASE,
        ),
    ),
    (
        "home",
        re.compile(
            r"\b(?:lives?|lived|living|based|settled|resides?|resided)\s+in\s+" + _VALUE,
            re.IGNORECASE,
        ),
    ),
    (
        "home",
        re.compile(
            r"\b(?:moved|moving|moves|relocated|relocating)\s+(?:from\s+[\w' -]{1,40}?\s+)?"
            r"(?:back\s+)?to\s+(?!(?:a|an|the)\s+(?:new\s+)?(?:version|release|plan|tier)\b)"
            + _VALUE,
            re.IGNORECASE,
        ),
    ),
    (
        # A tool, service or provider in use: "uses Postgres", "switched from Postgres to
        # SQLite", "migrated to GitLab". Single-valued only with a change (``changes``).
        "tool",
        re.compile(
            r"\b(?:uses?|using|runs?\s+on|switched\s+(?:over\s+)?(?:from\s+[\w' .-]{1,40}?\s+)?to"
            r"|migrated\s+(?:from\s+[\w' .-]{1,40}?\s+)?to|moved\s+from\s+[\w' .-]{1,40}?\s+to"
            r"|went\s+with|replaced\s+[\w' .-]{1,40}?\s+with)\s+" + _VALUE,
            re.IGNORECASE,
        ),
    ),
)
# "<whose> <attribute> is <value>": "The user's budget is 150 euros", "Our deadline is
# 3 March", "Maya's phone number is 555-0101". The attribute is named by its words; a value
# is a proper name or holds a number (``_value``).
_COPULA = re.compile(
    r"^(?:(?:the|my|our|their|his|her|its)\s+|(?:the\s+user|[A-Z][\w-]*)['’]s\s+)"
    r"(?P<attribute>[a-z][a-z -]{1,40}?)\s+(?:is|are|will\s+be|has\s+been|was)\s+"
    r"(?:now\s+|actually\s+|currently\s+|still\s+)?(?:(?:moved|changed|set|pushed|bumped"
    r"|raised|lowered|increased|reduced|cut)\s+(?:back\s+)?(?:to\s+)?|on\s+|at\s+)?"
    r"(?P<value>[^.!?;]{1,60})",
    re.IGNORECASE,
)
# Verbs that state a change by themselves ("moved to Denver"), without a change cue.
_CHANGE_VERB = re.compile(
    r"\b(?:moved|moving|moves|relocated|relocating|switched|migrated|replaced)\b", re.IGNORECASE
)
# The end of an attribute: "no longer works at Google" supersedes "works at Google".
_ENDED = re.compile(
    r"\b(?:no\s+longer|not\s+any\s?more|quit|left|stopped\s+working)\b", re.IGNORECASE
)


# Words that may stand between a clause's start and the attribute's verb when the clause is
# about the text's own subject ("Sam now works at", "I've just moved to", "Caroline: I live in").
def _listed(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Between a negation and the word it bears on: auxiliaries, articles, adverbs.
_NEGATION_SKIP = _listed(
    "a an the any be is am are was were been being do does did have has had really even ever "
    "quite very much so too at all longer more anymore"
)

_FRAME_LEAD = _listed(
    """i i'm i've i'd i'll we we're we've we'd we'll now just recently finally also still
    currently actually officially
    have has had am is was been started start starting began will be going gonna to no longer
    then so well oh yeah yes and but hey hi"""
)
# A value ends at the first of these words ("works at Google in London since May").
_VALUE_STOP = _listed(
    """and but with since because as now for in on at last this when where which who so then
    until after before again too anymore any these nowadays currently today yesterday from
    with while though although i we he she they it"""
)
_ARTICLES = frozenset({"the", "a", "an", "my", "our"})
_CLAUSE = re.compile(r"[.!?;,:]+\s*|\s+-\s+")
_SPEAKER = re.compile(r"^[A-Z][\w .'-]{0,39}:\s*")


def words(text: str) -> list[str]:
    return _WORD.findall(text.casefold().replace("’", "'"))


# The text features the rules read are pure functions of a text. Inside ``memoized()`` each
# is computed once per text, not once per pair: a consolidation run judges 100,000 memories,
# each against up to 8 neighbours, each a neighbour of many (100k: 26 s -> 12 s of deciding).
_MEMO: dict[tuple[str, str], Any] | None = None
_T = TypeVar("_T")


@contextmanager
def memoized() -> Iterator[None]:
    """Remember text features until the block ends (the texts are held only that long)."""
    global _MEMO
    if _MEMO is not None:
        yield
        return
    _MEMO = {}
    try:
        yield
    finally:
        _MEMO = None


def _feature(fn: Callable[[str], _T]) -> Callable[[str], _T]:
    name = fn.__name__

    @functools.wraps(fn)
    def call(text: str) -> _T:
        memo = _MEMO
        if memo is None:
            return fn(text)
        key = (name, text)
        try:
            return memo[key]  # type: ignore[no-any-return]
        except KeyError:
            found = memo[key] = fn(text)
            return found

    return call


@_feature
def _tokens(text: str) -> tuple[str, ...]:
    """``words(text)``, computed once per text for the features below (each used to
    tokenise the text again)."""
    return tuple(words(text))


@_feature
def _word_set(text: str) -> frozenset[str]:
    return frozenset(_tokens(text))


@_feature
def _word_count(text: str) -> int:
    return len(_tokens(text))


def retirable(text: str) -> bool:
    """Whether a memory is about little enough that a decision may take its text out of recall
    (a correction rewrites it, a contradiction's resolution supersedes it): at most
    ``SUPERSEDED_MAX_WORDS`` words. A long conversation turn holds much besides the one
    statement: an assistant's plan with an "actually" in it is no correction of the previous
    plan, and two answers of several kilobytes share most words and some negation."""
    return _word_count(text) <= SUPERSEDED_MAX_WORDS


def overlap(candidate: str, other: str) -> float:
    """Share of the candidate's distinct words that also occur in ``other`` (0..1)."""
    mine = _word_set(candidate)
    return len(mine & _word_set(other)) / len(mine) if mine else 0.0


def correction_cue(text: str) -> bool:
    """The text says it corrects something ("actually", "not Jon, but", "I meant")."""
    # Every cue holds one of these words: an ASCII text without any is not searched (the
    # pattern tries each of its alternatives at every position: 60 us a memory). Lower-cased,
    # an ASCII text holds what the case-insensitive pattern matches; others are searched.
    if text.isascii():
        lowered = text.lower()
        if not any(w in lowered for w in _CORRECTION_WORDS):
            return False
    return _CORRECTION_CUE.search(text) is not None


def clashes(a: str, b: str) -> bool:
    """One may state what the other denies: a negation on one side only, or an antonym pair.
    Loose on purpose: it only keeps two texts from being merged as one (NOOP)."""
    if _negated(a) != _negated(b):
        return True
    return _antonyms(a, b)


def contradicts(a: str, b: str) -> bool:
    """Strong evidence that one states the opposite of the other: mostly the same words (their
    roots, negations aside, ``CONTRADICT_MIN_OVERLAP`` both ways) and either an antonym pair or a
    word negated on one side that the other states plainly ("Ana doesn't like coffee" / "Ana
    likes coffee"). A negation elsewhere is no contradiction: "can't wait for the show" and
    "I'm putting on a show, so stoked" agree, as do "long time no talk" and "busy week since
    we talked"."""
    ra, rb = _roots(a), _roots(b)
    if not ra or not rb:
        return False
    shared = len(ra & rb)
    if min(shared / len(ra), shared / len(rb)) < CONTRADICT_MIN_OVERLAP:
        return False
    if _antonyms(a, b):
        return True
    ta, tb = _negation_targets(a), _negation_targets(b)
    return bool((ta - tb) & rb) or bool((tb - ta) & ra)


def _antonyms(a: str, b: str) -> bool:
    mine, theirs = _antonym_sides(a), _antonym_sides(b)
    return any((pair, 1 - side) in theirs for pair, side in mine)


@_feature
def _antonym_sides(text: str) -> frozenset[tuple[int, int]]:
    """Which side of which ``_ANTONYMS`` pair the text's stems hold: (pair, 0 or 1)."""
    found = _stems(text)
    return frozenset(
        (pair, side)
        for pair, words_of_pair in enumerate(_ANTONYMS)
        for side, word in enumerate(words_of_pair)
        if word in found
    )


@functools.lru_cache(maxsize=65536)  # words repeat: a batch asks for the same few thousand
def root(word: str) -> str:
    """A crude root, enough to meet "likes", "liked" and "liking" at "like"."""
    for suffix in ("ing", "ed", "es", "s", "d"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)].rstrip("e") if suffix != "s" else word[:-1]
    return word.rstrip("e") if len(word) > 3 else word


@_feature
def _roots(text: str) -> frozenset[str]:
    """Roots of the text's words, negations and the speaker prefix's colon aside."""
    return frozenset(
        root(w) for w in _tokens(text) if w not in _NEGATIONS and not w.endswith("n't")
    )


@_feature
def _negation_targets(text: str) -> frozenset[str]:
    """Roots of the words a negation bears on: the first word after it that is not an
    auxiliary, article or adverb ("doesn't really like tea" -> like; "no longer works" -> work)."""
    tokens = _tokens(text)
    found: set[str] = set()
    for i, token in enumerate(tokens):
        if token in _NEGATIONS or token.endswith("n't"):
            for follower in tokens[i + 1 : i + 4]:
                if follower not in _NEGATION_SKIP:
                    found.add(root(follower))
                    break
    return frozenset(found)


_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][\w'-]*|\b\d[\d.,:/-]*")


@_feature
def _negated(text: str) -> bool:
    return any(w in _NEGATIONS or w.endswith("n't") for w in _word_set(text))


@_feature
def names(text: str) -> frozenset[str]:
    """Proper names (capitalised words not opening the text) and numbers: two texts that name
    different things ("lives in Paris" / "lives in Lima") are not one fact, however close."""
    found = {m.group(0).casefold().split("'")[0] for m in _NAME.finditer(text.strip())}
    return frozenset(found - {"i"})


@_feature
def _stems(text: str) -> frozenset[str]:
    """Words plus their crude singular/past stems, so "likes" and "disliked" meet "like"."""
    found = _word_set(text)
    return found | {w[:-1] for w in found if len(w) > 3 and w.endswith(("s", "d"))}


@_feature
def subject(text: str) -> str | None:
    """Who or what the fact is about: the leading run of capitalised words (``Sam``, ``Ana
    Lopez``) or the ``Speaker:`` prefix of an extracted turn; None when it opens otherwise."""
    head = text.split(":", 1)
    if len(head) == 2 and _ANNOUNCEMENT.fullmatch(head[0].strip()):
        return subject(head[1])  # "Quick update: Maya moved ...": Maya
    if len(head) == 2 and 0 < len(head[0]) <= 40 and head[0].strip()[:1].isupper():
        return head[0].strip().casefold()
    tokens = re.findall(r"[A-Za-z][\w'-]*", text)
    while tokens and tokens[0].casefold() in _LEADING_FILLER:
        tokens = tokens[1:]
    run = []
    for token in tokens:
        if not token[0].isupper() or token in ("I", "My", "The", "A", "An"):
            break
        run.append(token.split("'")[0].casefold())
    return " ".join(run) or None


@_feature
def attributes(text: str) -> frozenset[tuple[str, str]]:
    """The single-valued attributes the text states of its own subject, as (attribute, value):
    "Sam now works at Microsoft" gives ("employer", "microsoft"); "Ana moved from Boston to
    Denver" gives ("home", "denver"). Values are proper names. A clause about someone else
    ("my sister moved to Denver") or an old state ("I used to live in Boston") gives
    nothing."""
    own = set((subject(text) or "").split())
    body = _SPEAKER.sub("", text.strip(), count=1)
    found: set[tuple[str, str]] = set()
    for clause in _CLAUSE.split(body)[:1]:
        copula = _COPULA.match(clause)
        if copula is not None and (value := _value(copula["value"])):
            found.add((f"the {' '.join(words(copula['attribute']))}", value))
    for number, clause in enumerate(_CLAUSE.split(body)):
        for attribute, pattern in _ATTRIBUTES:
            for match in pattern.finditer(clause):
                lead = words(clause[: match.start()])
                if not lead and number > 0:
                    continue  # an appositive ("..., works at X") has no subject of its own
                if any(w not in _FRAME_LEAD and w not in own for w in lead):
                    continue
                value = _value(match.group("value"))
                if value:
                    found.add((attribute, value))
    return frozenset(found)


def _value(raw: str) -> str:
    """The value's words up to the first stop word, without a leading article; empty unless
    one of them is a proper name ("Google", "Denver": not "a new place")."""
    kept: list[str] = []
    for token in re.findall(r"[\w'&.-]+", raw.replace("’", "'")):
        word = token.casefold().strip(".")
        if word in _VALUE_STOP:
            break
        if kept or word not in _ARTICLES:
            kept.append(token)
    if not any(t[:1].isupper() or any(c.isdigit() for c in t) for t in kept):
        return ""
    return " ".join(t.casefold().strip(".") for t in kept)


def changes(text: str, other: str) -> bool:
    """Strong evidence that ``text`` changes an attribute ``other`` states, of the same
    subject: both state it of their own subject, ``text`` says it changed (a change cue, a
    change verb such as "moved", or the attribute's end), and the values differ (or, for an
    end, are the same). ``other`` must be short: what else it says would vanish with it."""
    if subject(text) != subject(other) or not retirable(other):
        return False
    mine, theirs = attributes(text), attributes(other)
    if not mine or not theirs:
        return False
    ended = _ENDED.search(text) is not None
    if not (is_change(text) or _CHANGE_VERB.search(text) or ended):
        return False
    for attribute, value in mine:
        old = {v for a, v in theirs if a == attribute}
        if old and (value not in old or ended):
            return True
    return False


def is_turn(text: str) -> bool:
    """A conversation turn as stored: ``Speaker: what was said``."""
    return _SPEAKER.match(text.strip()) is not None


def said_again(text: str, other: str) -> bool:
    """Nearly the same words both ways ("Thanks Nate!" / "Thanks, Nate!")."""
    return min(overlap(text, other), overlap(other, text)) >= SAME_TURN_MIN


def restates(text: str, other: str) -> bool:
    """``text`` says most of what ``other`` says (a correction repeats what it corrects)."""
    return overlap(other, text) >= RESTATES_MIN
