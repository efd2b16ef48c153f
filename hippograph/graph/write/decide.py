"""What to do with a new fact, given the memories most like it: one decision for every path
(remember, extraction, consolidation).

Actions:

- ``ADD``: a new memory.
- ``UPDATE(target)``: a refinement or correction; the target takes the new text and keeps the
  old one in its history.
- ``SUPERSEDE(target)``: a change over time; a new memory ``SUPERSEDES`` the target, which is
  kept as history ("works at Microsoft; previously Google").
- ``CONTRADICT(target)``: both kept, linked by ``CONTRADICTS`` and flagged for resolution.
- ``NOOP(target)``: the same fact again; the target is reinforced.

Two deciders share the ``Decider`` protocol. ``OfflineDecider`` is deterministic and
conservative: it acts only on strong evidence and a close neighbour, else it adds. In
conversation text an ordinary turn is a new memory: "now", "joined" or "used to" open many
turns that change nothing ("We adopted another puppy called Pixie" is a second puppy, not a
new value of the first), and a superseded turn can no longer be found. So SUPERSEDE needs a
new value of a single-valued attribute (employer: "works at"; home: "lives in", "moved to"),
a proper name, stated of the text's own subject, with a change cue ("now", "moved", "no
longer"), against a short target stating the same attribute of the same subject. UPDATE needs
an explicit correction (provenance ``user_corrected``, type ``correction``) or a correction cue
("actually", "not Jon, but") in a text that restates most of its target. Two turns are one
memory (NOOP) only when they hold nearly the same words. On the five LoCoMo
dev conversations the earlier cue-only rules superseded 95 of 2,760 turns (``bench/
write_decisions.py``). Its thresholds
are cosine similarities of all-MiniLM-L6-v2 embeddings, measured on pairs such as "Sam works at
Google" / "Sam now works at Microsoft" (0.74), "Ana likes coffee" / "Ana doesn't like coffee"
(0.93), "Ana prefers dark mode" / "Ana likes using dark mode" (0.95), "Melanie loves hiking" /
"Melanie loves painting" (0.63, two facts). A duplicate must also name the same things (proper
names and numbers): "Ana lives in Paris" / "Ana lives in Lima" are two facts. Duplicates and
contradictions also need the same subject (leading proper name or ``Speaker:`` prefix) when
both facts have one: "Ana likes tea" and "Bob likes tea" can embed above 0.92 but are two
facts. ``LLMDecider`` asks an
OpenAI-compatible model, with timestamps in the prompt, validates the answer strictly, and falls
back to the offline decider on any failure: a fact is never lost to a bad answer.

This module does no I/O apart from the LLM call; ``graph.write.writepath`` gathers the
neighbours and applies the decision.
"""

from __future__ import annotations

import functools
import json
import logging
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

from hippograph.graph.errors import LLMError
from hippograph.graph.models.llm import JsonCompleter

log = logging.getLogger(__name__)

ACTIONS: tuple[str, ...] = ("ADD", "UPDATE", "SUPERSEDE", "CONTRADICT", "NOOP")

# Offline thresholds (cosine). See the module docstring for the pairs they come from.
NOOP_MIN = 0.92  # paraphrase of the same fact, same memory type, no negation clash
UPDATE_MIN = 0.70  # explicit correction cue and a target at least this close
SUPERSEDE_MIN = 0.60  # a new value of the same attribute of the same subject, with a cue
# A correction cue in the text ("actually" opens many an ordinary turn) must also restate the
# target: at least this share of the target's words are in the correction.
RESTATES_MIN = 0.6
# Two conversation turns ("Speaker: ...") are one memory only when each holds this share of
# the other's words: said again later is a new turn, whatever its embedding.
SAME_TURN_MIN = 0.8
# A memory superseded must be about little else: at most this many words (the rest of a long
# conversation turn would vanish with it).
SUPERSEDED_MAX_WORDS = 30
CONTRADICT_MIN = 0.85  # negation/antonym clash with a very similar target
CONTRADICT_MIN_OVERLAP = 0.6  # ... that says mostly the same words (roots, both ways)
CONSIDER_MIN = 0.55  # neighbours below this never lead to anything but ADD


@dataclass(frozen=True, kw_only=True)
class Candidate:
    """The new fact as the decider sees it."""

    content: str
    memory_type: str
    provenance: str
    occurred_at: str | None = None


@dataclass(frozen=True, kw_only=True)
class Neighbour:
    """An existing memory close to the candidate (same namespace and scope).

    cosine: embedding similarity; overlap: share of the candidate's words it contains.
    """

    id: str
    content: str
    memory_type: str
    cosine: float
    overlap: float
    created_at: str
    updated_at: str


@dataclass(frozen=True, kw_only=True)
class Decision:
    action: str
    target: str | None
    reason: str
    decider: str
    similarity: float | None = None


class Decider(Protocol):
    name: str

    def decide(self, candidate: Candidate, neighbours: Sequence[Neighbour]) -> Decision: ...


# ---------------------------------------------------------------- cues

_WORD = re.compile(r"[a-z0-9']+")
_CORRECTION_CUE = re.compile(
    r"\b(?:actually|correction|i\s+meant|i\s+misspoke|scratch\s+that|to\s+be\s+precise"
    r"|that\s+was\s+wrong|i\s+was\s+wrong|not\s+\w+(?:\s+\w+)?\s*,?\s+but)\b"
    r"|,\s*not\s+[\w'-]+\s*[.!]?$",
    re.IGNORECASE,
)
_CHANGE_CUE = re.compile(
    r"\b(?:now|no\s+longer|not\s+anymore|any\s?more|moved\s+to|moving\s+to|switched\s+to"
    r"|changed\s+to|started\s+working|starts?\s+working|joined|quit|became|has\s+become"
    r"|these\s+days|nowadays|currently|since\s+(?:last|this)|used\s+to|from\s+now\s+on)\b",
    re.IGNORECASE,
)
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
            r"(?:back\s+)?to\s+" + _VALUE,
            re.IGNORECASE,
        ),
    ),
)
# Verbs that state a change by themselves ("moved to Denver"), without a change cue.
_CHANGE_VERB = re.compile(r"\b(?:moved|moving|moves|relocated|relocating)\b", re.IGNORECASE)
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
    """i i'm i've i'd i'll now just recently finally also still currently actually officially
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
_CLAUSE = re.compile(r"[.!?;,]+\s*|\s+-\s+")
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
    @functools.wraps(fn)
    def call(text: str) -> _T:
        memo = _MEMO
        if memo is None:
            return fn(text)
        key = (fn.__name__, text)
        if key not in memo:
            memo[key] = fn(text)
        return memo[key]  # type: ignore[no-any-return]

    return call


@_feature
def _word_set(text: str) -> frozenset[str]:
    return frozenset(words(text))


def overlap(candidate: str, other: str) -> float:
    """Share of the candidate's distinct words that also occur in ``other`` (0..1)."""
    mine = _word_set(candidate)
    return len(mine & _word_set(other)) / len(mine) if mine else 0.0


def is_correction(candidate: Candidate) -> bool:
    return (
        candidate.provenance == "user_corrected"
        or candidate.memory_type == "correction"
        or _CORRECTION_CUE.search(candidate.content) is not None
    )


def is_change(text: str) -> bool:
    return _CHANGE_CUE.search(text) is not None


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
    wa, wb = _stems(a), _stems(b)
    return any((x in wa and y in wb) or (y in wa and x in wb) for x, y in _ANTONYMS)


def _root(word: str) -> str:
    """A crude root, enough to meet "likes", "liked" and "liking" at "like"."""
    for suffix in ("ing", "ed", "es", "s", "d"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)].rstrip("e") if suffix != "s" else word[:-1]
    return word.rstrip("e") if len(word) > 3 else word


@_feature
def _roots(text: str) -> frozenset[str]:
    """Roots of the text's words, negations and the speaker prefix's colon aside."""
    return frozenset(_root(w) for w in words(text) if w not in _NEGATIONS and not w.endswith("n't"))


@_feature
def _negation_targets(text: str) -> frozenset[str]:
    """Roots of the words a negation bears on: the first word after it that is not an
    auxiliary, article or adverb ("doesn't really like tea" -> like; "no longer works" -> work)."""
    tokens = words(text)
    found: set[str] = set()
    for i, token in enumerate(tokens):
        if token in _NEGATIONS or token.endswith("n't"):
            for follower in tokens[i + 1 : i + 4]:
                if follower not in _NEGATION_SKIP:
                    found.add(_root(follower))
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
    if not any(t[:1].isupper() for t in kept):
        return ""
    return " ".join(t.casefold().strip(".") for t in kept)


def changes(text: str, other: str) -> bool:
    """Strong evidence that ``text`` changes an attribute ``other`` states, of the same
    subject: both state it of their own subject, ``text`` says it changed (a change cue, a
    change verb such as "moved", or the attribute's end), and the values differ (or, for an
    end, are the same). ``other`` must be short: what else it says would vanish with it."""
    if subject(text) != subject(other) or len(words(other)) > SUPERSEDED_MAX_WORDS:
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


# ---------------------------------------------------------------- offline


def _compatible(a: str | None, b: str | None) -> bool:
    """Two facts can be the same (or opposite) only if they are about the same subject:
    "Ana likes tea" and "Bob likes tea" embed very close but are two facts."""
    return a is None or b is None or a == b


class OfflineDecider:
    """Deterministic rules, first match wins, over neighbours in order of similarity."""

    name = "offline"

    def decide(self, candidate: Candidate, neighbours: Sequence[Neighbour]) -> Decision:
        close = sorted((n for n in neighbours if n.cosine >= CONSIDER_MIN), key=lambda n: -n.cosine)
        text = candidate.content
        if is_correction(candidate):
            explicit = candidate.provenance == "user_corrected" or (
                candidate.memory_type == "correction"
            )
            for n in close:
                if n.cosine >= UPDATE_MIN and (
                    explicit
                    or (
                        _compatible(subject(text), subject(n.content)) and restates(text, n.content)
                    )
                ):
                    return self._made("UPDATE", n, "a correction of a close memory")
        for n in close:
            if n.cosine >= SUPERSEDE_MIN and changes(text, n.content):
                return self._made("SUPERSEDE", n, "a new value of the same attribute")
        mine = subject(text)
        close = [n for n in close if _compatible(mine, subject(n.content))]
        for n in close:
            if n.cosine >= CONTRADICT_MIN and contradicts(text, n.content):
                return self._made("CONTRADICT", n, "states the opposite of a very similar memory")
        for n in close:
            if (
                n.cosine >= NOOP_MIN
                and n.memory_type == candidate.memory_type
                and not clashes(text, n.content)
                and names(text) == names(n.content)
                and (not is_turn(text) or said_again(text, n.content))
            ):
                return self._made("NOOP", n, "a paraphrase of an existing memory")
        best = close[0].cosine if close else None
        return Decision(
            action="ADD", target=None, reason="no close memory says this", decider=self.name,
            similarity=best,
        )  # fmt: skip

    def _made(self, action: str, n: Neighbour, why: str) -> Decision:
        return Decision(
            action=action,
            target=n.id,
            reason=f"{why} (cosine {n.cosine:.3f}, word overlap {n.overlap:.2f})",
            decider=self.name,
            similarity=n.cosine,
        )


# ---------------------------------------------------------------- LLM

SCHEMA_NAME = "memory_decision"
_SYSTEM_PROMPT = """\
You maintain an AI agent's long-term memory. A new fact arrives; existing memories that are \
similar are listed with their ids and timestamps. Decide what to do with the new fact.
Answer with one JSON object and nothing else, exactly this shape:
{"action": "ADD" | "UPDATE" | "SUPERSEDE" | "CONTRADICT" | "NOOP", \
"target_id": string or null, "reason": string}
- ADD: it is a new fact (target_id null).
- UPDATE: it refines or corrects an existing memory that was wrong or imprecise.
- SUPERSEDE: the world changed over time; the existing memory was true then, the new fact is \
true now (use the timestamps: "works at Google" then later "works at Microsoft").
- CONTRADICT: it states the opposite of an existing memory and it is unclear which is right.
- NOOP: it says the same as an existing memory.
target_id must be one of the listed ids for every action but ADD. Be conservative: when \
unsure, ADD."""


def _render(candidate: Candidate, neighbours: Sequence[Neighbour]) -> str:
    lines = [
        f"New fact (said at {candidate.occurred_at or 'now'}, type {candidate.memory_type}): "
        f"{candidate.content}",
        "Existing memories:",
    ]
    lines += [
        f"- id {n.id} (created {n.created_at}, updated {n.updated_at}, type {n.memory_type}, "
        f"similarity {n.cosine:.2f}): {n.content}"
        for n in neighbours
    ] or ["(none)"]
    return "\n".join(lines)


def parse_llm_decision(payload: object, known: frozenset[str]) -> tuple[str, str | None, str]:
    """Validate ``{"action", "target_id", "reason"}``; the first violation raises LLMError."""
    if not isinstance(payload, dict) or set(payload) != {"action", "target_id", "reason"}:
        raise LLMError(f"{SCHEMA_NAME}: expected exactly the keys action, target_id, reason")
    action, target, reason = payload["action"], payload["target_id"], payload["reason"]
    if action not in ACTIONS:
        raise LLMError(f"{SCHEMA_NAME}: action must be one of {list(ACTIONS)}, not {action!r}")
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 1000:
        raise LLMError(f"{SCHEMA_NAME}: reason must be a string of 1-1000 characters")
    if action == "ADD":
        if target is not None:
            raise LLMError(f"{SCHEMA_NAME}: ADD takes no target_id")
        return action, None, reason.strip()
    if not isinstance(target, str) or target not in known:
        raise LLMError(f"{SCHEMA_NAME}: target_id {target!r} is not one of the listed memories")
    return action, target, reason.strip()


class LLMDecider:
    """The configured model decides; any failure falls back to ``fallback`` for the same fact."""

    name = "llm"

    def __init__(self, client: JsonCompleter, fallback: Decider | None = None) -> None:
        self._client = client
        self._fallback = fallback or OfflineDecider()

    def decide(self, candidate: Candidate, neighbours: Sequence[Neighbour]) -> Decision:
        if not neighbours:
            # Nothing to compare with: ADD, without spending a model call.
            return Decision(action="ADD", target=None, reason="no similar memory", decider="llm")
        try:
            payload = self._client.complete_json(
                _SYSTEM_PROMPT, _render(candidate, neighbours), schema_name=SCHEMA_NAME
            )
            action, target, reason = parse_llm_decision(
                payload, frozenset(n.id for n in neighbours)
            )
        except LLMError as exc:
            log.warning("LLM decider failed, using the offline decider: %s", exc.message)
            fallback = self._fallback.decide(candidate, neighbours)
            return replace(
                fallback,
                decider=f"{fallback.decider} (llm failed)",
                reason=f"{fallback.reason}; LLM failed: {exc.message[:300]}",
            )
        similarity = next((n.cosine for n in neighbours if n.id == target), None)
        return Decision(
            action=action, target=target, reason=reason, decider="llm", similarity=similarity
        )


class BudgetedDecider:
    """``decider`` for the first ``calls`` decisions it is asked for, then ``fallback`` (the
    offline rules by default), labelled as such: a bound on the model calls of one job run
    (consolidating a large namespace would otherwise ask the model once per candidate)."""

    def __init__(self, decider: Decider, calls: int, fallback: Decider | None = None) -> None:
        self.name = decider.name
        self._decider = decider
        self._fallback = fallback or OfflineDecider()
        self.calls = calls
        self.spent = 0
        self.over = 0  # decisions left to the fallback once the budget was spent

    def decide(self, candidate: Candidate, neighbours: Sequence[Neighbour]) -> Decision:
        if not neighbours:
            return self._decider.decide(candidate, neighbours)  # no call is made for these
        if self.spent >= self.calls:
            self.over += 1
            fallback = self._fallback.decide(candidate, neighbours)
            return replace(fallback, decider=f"{fallback.decider} (llm budget spent)")
        self.spent += 1
        return self._decider.decide(candidate, neighbours)


def to_json(decision: Decision) -> str:
    return json.dumps(decision.__dict__, sort_keys=True)
