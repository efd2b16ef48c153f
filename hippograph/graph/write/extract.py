"""Turn conversation turns into candidate memories.

Two paths, one output type:

- ``extract_offline(turn)``: deterministic and local. It never loses a turn: anything that is
  not a pure greeting or filler yields at least one fact, attributed to the speaker.
- ``graph.write.extract_llm.extract_llm(client, turns)``: asks an OpenAI-compatible model and
  validates the answer strictly; on ``LLMError`` the caller falls back to this module for the
  same turns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from hippograph.graph.write import signals

MAX_CONTENT_CHARS = 2000
EXPLICIT_CONFIDENCE = 0.9  # the turn carries a signal phrase: said on purpose
DEFAULT_CONFIDENCE = 0.7


@dataclass(frozen=True)
class TurnText:
    """One turn of a conversation as the extractor sees it."""

    speaker: str
    text: str
    timestamp: datetime | None
    session_id: str
    turn_index: int
    role: str | None = None  # user, assistant, system or tool, when the message said


@dataclass(frozen=True)
class ExtractedFact:
    """A candidate memory. ``source_turns`` holds the ``turn_index`` values it came from."""

    content: str
    memory_type: str
    confidence: float
    tags: tuple[str, ...]
    event_time: datetime | None
    source_turns: tuple[int, ...] = ()


# ---------------------------------------------------------------- offline: fillers, sentences


def _word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_WORD = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?")
_FILLER_WORDS = _word_set(
    """hi hey hello hiya yo howdy heya thanks thank you thx ty tysm lol lmao lmfao rofl haha
    hahaha hehe ok okay k kk cool nice wow bye goodbye cya cheers awesome great good morning
    night evening afternoon see ya too np welcome you're sure there omg yay xd a lot so much
    again all right alright yeah yep yup hmm mhm um uh oh ah ooh"""
)
_LAUGHTER = re.compile(r"(?:h[aeo]){2,}h?|l(?:o+l)+|lm+f?a+o+|x+d+", re.IGNORECASE)
_SENTENCE_BREAK = re.compile(r"(?<=[.!?…])\s+|\s*\n\s*")
_ABBREVIATION_END = re.compile(
    r"(?:\b(?:mr|mrs|ms|dr|prof|st|vs|etc|jr|sr|approx|e\.g|i\.e)|(?<![A-Za-z])[A-Za-z])\.$",
    re.IGNORECASE,
)
# A sentence opening with one of these leans on the one before it.
_LEANS_BACK = _word_set(
    """it its it's that that's this these those they them he she his her him there so and
    but or also which then too plus because though although yeah yes no"""
)


def _is_filler_word(word: str) -> bool:
    return word.lower() in _FILLER_WORDS or _LAUGHTER.fullmatch(word) is not None


def is_filler(text: str) -> bool:
    """True for greetings, thanks, acknowledgements, laughter and emoji, and nothing else.

    A greeting may name the person greeted ("Hey Mel!").
    """
    words = _WORD.findall(text)
    if not words:
        return not any(ch.isdigit() for ch in text)
    rest = [word for word in words if not _is_filler_word(word)]
    if not rest:
        return True
    is_vocative = len(rest) == 1 and rest[0][0].isupper() and rest[0] != words[0]
    return is_vocative and len(words) <= 3


def _tidy(text: str) -> str:
    lines = (" ".join(line.split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def _sentences(text: str) -> list[str]:
    merged: list[str] = []
    for piece in _SENTENCE_BREAK.split(text):
        if not piece:
            continue
        if merged and _ABBREVIATION_END.search(merged[-1]):
            merged[-1] = f"{merged[-1]} {piece}"
        else:
            merged.append(piece)
    return merged


def _standalone(sentence: str) -> bool:
    words = _WORD.findall(sentence)
    return (
        len(words) >= 4
        and not sentence.endswith("?")
        and words[0].lower().replace("’", "'") not in _LEANS_BACK
    )


def _segments(sentences: list[str]) -> list[list[str]]:
    """Group sentences into independently meaningful facts.

    Fillers are dropped; a sentence too short, a question, or one that leans on the previous
    one joins its neighbour; leading ones wait for the first standalone sentence.
    """
    segments: list[list[str]] = []
    pending: list[str] = []
    for sentence in sentences:
        if is_filler(sentence):
            continue
        if _standalone(sentence):
            segments.append([*pending, sentence])
            pending = []
        elif segments:
            segments[-1].append(sentence)
        else:
            pending.append(sentence)
    if pending:
        segments.append(pending)
    return segments


def _bounded(segment: list[str], budget: int) -> list[list[str]]:
    """Split a segment so no piece is longer than ``budget`` characters."""
    pieces: list[list[str]] = [[]]
    for sentence in segment:
        for part in _wrap(sentence, budget):
            if pieces[-1] and len(" ".join([*pieces[-1], part])) > budget:
                pieces.append([])
            pieces[-1].append(part)
    return pieces


def _wrap(sentence: str, budget: int) -> list[str]:
    parts: list[str] = []
    while len(sentence) > budget:
        cut = sentence.rfind(" ", 0, budget + 1)
        cut = cut if cut > 0 else budget
        parts.append(sentence[:cut].rstrip())
        sentence = sentence[cut:].lstrip()
    return [*parts, sentence] if sentence else parts


# ---------------------------------------------------------------- offline: first person

_LEAD = re.compile(
    r"(?P<pre>(?i:(?:actually|so|well|also|oh|and|but|honestly|yeah|yes|no|ok|okay|now)"
    r",?\s+)*)[Ii](?:(?P<contraction>['’](?:m|ve|ll))\b|\s+(?P<adverbs>(?:(?:really|also|just"
    r"|usually|often|always|never|still|actually|recently|finally|totally|absolutely"
    r"|definitely|sometimes|even|already|truly)\s+)*)(?P<verb>[a-z]+(?:['’]t)?)\b)"
    r"(?P<rest>.*)",
    re.DOTALL,
)
_FIRST_PERSON = re.compile(r"\b(?:i|me|my|mine|myself)\b", re.IGNORECASE)
_THIRD_PERSON = {
    "'m": "is", "'ve": "has", "'ll": "will", "am": "is", "have": "has", "do": "does",
    "don't": "doesn't", "haven't": "hasn't", "go": "goes",
}  # fmt: skip
_INVARIANT = _word_set(
    """was did had can could will would should might must may used didn't can't cannot
    couldn't won't wouldn't shouldn't wasn't hadn't went got made saw took came found gave
    told felt left met bought brought thought said ran began wrote knew grew became kept lost
    won spent sent built taught caught fell flew forgot heard held paid sold sat slept spoke
    stood understood drew drove ate swam sang rode wore chose broke"""
)
_PRESENT = _word_set(
    """love like hate prefer enjoy dislike adore want need think feel know believe work live
    play own use teach study cook paint swim hike drive visit plan hope wish miss watch try
    agree remember forget mean say see get make take eat drink listen collect volunteer care
    run write sing dance travel bake garden practice attend keep support"""
)


def _verb_for_speaker(verb: str) -> str | None:
    verb = verb.replace("’", "'")
    if verb in _THIRD_PERSON:
        return _THIRD_PERSON[verb]
    if verb in _INVARIANT or (verb.endswith("ed") and len(verb) > 3):
        return verb
    if verb not in _PRESENT:
        return None
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _in_third_person(speaker: str, sentence: str) -> str | None:
    """``sentence`` with a leading "I ..." told about ``speaker``, or None if that is unsafe."""
    lead = _LEAD.fullmatch(sentence)
    if lead is None:
        return None
    verb = _verb_for_speaker(lead["contraction"] or lead["verb"])
    if verb is None or _FIRST_PERSON.search(lead["rest"]):
        return None
    return f"{lead['pre']}{speaker} {lead['adverbs'] or ''}{verb}{lead['rest']}"


def _attributed(speaker: str, sentences: list[str]) -> str:
    """Sentences rewritten about the speaker when every one allows it, else "Speaker: text"."""
    text = " ".join(sentences)
    if not speaker:
        return text
    rewritten: list[str] = []
    for sentence in sentences:
        if not _FIRST_PERSON.search(sentence):
            rewritten.append(sentence)
            continue
        told = _in_third_person(speaker, sentence)
        if told is None:
            return f"{speaker}: {text}"
        rewritten.append(told)
    if rewritten[0] == sentences[0]:  # the fact must open with who said it
        return f"{speaker}: {text}"
    return " ".join(rewritten)


# ---------------------------------------------------------------- offline: time and type

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_RELATIVE_DAYS: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"\b(?:yesterday|last\s+night)\b", re.IGNORECASE), -1),
    (re.compile(r"\btomorrow\b", re.IGNORECASE), 1),
    (re.compile(r"\blast\s+week\b", re.IGNORECASE), -7),
    (re.compile(r"\bnext\s+week\b", re.IGNORECASE), 7),
)
_AGO = re.compile(
    r"\b(?P<n>\d{1,3}|a|an|one|two|three|four|five|six)\s+(?P<unit>day|week)s?\s+ago\b",
    re.IGNORECASE,
)
# A dislike ("I don't like mushrooms") reads as a preference first, a rule second.
_TYPE_ORDER = ("correction", "procedure", "preference", "negative")


def _event_time(text: str, said_at: datetime | None) -> datetime | None:
    """When the fact happened: the turn's time, shifted by the first relative day phrase."""
    if said_at is None:
        return None
    found = [(m.start(), days) for pattern, days in _RELATIVE_DAYS if (m := pattern.search(text))]
    if ago := _AGO.search(text):
        count = _NUMBERS.get(ago["n"].lower()) or int(ago["n"])
        found.append((ago.start(), -count * (7 if ago["unit"].lower() == "week" else 1)))
    return said_at + timedelta(days=min(found)[1]) if found else said_at


def _memory_type(kinds: tuple[str, ...]) -> str:
    return next((kind for kind in _TYPE_ORDER if kind in kinds), "fact")


def _fact(turn: TurnText, sentences: list[str]) -> ExtractedFact:
    said = " ".join(sentences)
    signal = signals.score(said)
    content = _attributed(turn.speaker.strip(), sentences)
    if len(content) > MAX_CONTENT_CHARS:  # "Caroline" for "I" can push a full piece over
        content = f"{turn.speaker.strip()}: {said}"
    return ExtractedFact(
        content=content,
        memory_type=_memory_type(signal.kinds),
        confidence=EXPLICIT_CONFIDENCE if signal.high else DEFAULT_CONFIDENCE,
        tags=signal.kinds,
        event_time=_event_time(said, turn.timestamp),
        source_turns=(turn.turn_index,),
    )


def extract_offline(turn: TurnText) -> list[ExtractedFact]:
    """Facts in one turn, without a model.

    Returns ``[]`` only for empty turns and pure greetings/fillers. A procedure (numbered
    steps, "first ..., then ...") stays one fact; other turns are split into sentences that
    stand on their own, each attributed to the speaker.

    Args:
        turn: the turn; ``timestamp`` anchors "yesterday" and the like.
    """
    text = _tidy(turn.text)
    if not text or is_filler(text):
        return []
    if "procedure" in signals.score(text).kinds:
        segments = [[text]]
    else:
        segments = _segments(_sentences(text)) or [[text]]
    budget = MAX_CONTENT_CHARS - len(turn.speaker) - 2
    return [_fact(turn, piece) for segment in segments for piece in _bounded(segment, budget)]
