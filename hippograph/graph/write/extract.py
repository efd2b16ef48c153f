"""Turn conversation turns into candidate memories.

Two paths, one output type:

- ``extract_offline(turn)``: deterministic and local. A turn without a role (a transcript of
  people talking) yields at least one fact unless it is a pure greeting or filler, attributed to
  the speaker. A turn with a role is read for what it states (``Dialogue``): the user's
  statements, not their questions; of the assistant only what it tells, not its greetings,
  acknowledgements, questions, promises or echoes of what the user said; nothing of a tool's or
  the system's turn. Every turn stays in the episode log, searchable there.
- ``graph.write.extract_llm.extract_llm(client, turns)``: asks an OpenAI-compatible model and
  validates the answer strictly; on ``LLMError`` the caller falls back to this module for the
  same turns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from hippograph.graph.text import restate, standing
from hippograph.graph.text.standing import IDENTITY_PREFIX
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
    role: str | None = None  # user, assistant, system or tool; None for a named speaker


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
    r"(?:\b(?:mr|mrs|ms|dr|prof|st|vs|etc|jr|sr|approx|e\.g|i\.e)|(?<![^\W\d_])[^\W\d_])\.$",
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

_PRE = (
    r"(?P<pre>(?i:(?:actually|so|well|also|oh|and|but|honestly|yeah|yes|no|ok|okay|now|fyi"
    r"|btw|by\s+the\s+way|(?:quick\s+|small\s+|an\s+)?update"
    r"|(?:big|good|great|some|exciting|bad|sad)\s+news)[,:!]?\s+)*)"
)
_LEAD = re.compile(
    _PRE + r"[Ii](?:(?P<contraction>['’](?:m|ve|ll))\b|\s+(?P<adverbs>(?:(?:really|also|just"
    r"|usually|often|always|never|still|actually|recently|finally|totally|absolutely"
    r"|definitely|sometimes|even|already|truly)\s+)*)(?P<verb>[a-z]+(?:['’]t)?)\b)"
    r"(?P<rest>.*)",
    re.DOTALL,
)
# "My birthday is ..." told about the speaker: "Maya's birthday is ...".
_POSSESSIVE_LEAD = re.compile(_PRE + r"[Mm]y\s+(?P<rest>\S.*)", re.DOTALL)
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
        owned = _POSSESSIVE_LEAD.fullmatch(sentence)
        if owned is None or _FIRST_PERSON.search(owned["rest"]):
            return None
        return f"{owned['pre']}{speaker}'s {owned['rest']}"
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


# A never-do rule is an imperative: "Never book overnight layovers", "Please don't call after
# 9pm", "Avoid anything with nuts". "I never sleep well" and "I always go on Tuesdays" are
# statements about oneself, and "Always include version numbers when I ask ..." is an
# instruction: a preference of how to be answered, applied by its condition.
_RULE = re.compile(
    r"^(?:(?:actually|also|and|so|oh|ok|okay|btw|from\s+now\s+on|going\s+forward|in\s+future)"
    r"\b[\s,:-]*)*(?:please\s+)?(?:never|don['’]?t|do\s+not|avoid|stop)\b",
    re.IGNORECASE,
)


def _memory_type(said: str, kinds: tuple[str, ...]) -> str:
    if standing.instruction(said) is not None:
        return "preference"
    if "negative" in kinds and not _RULE.match(said):
        kinds = tuple(k for k in kinds if k != "negative")
    return next((kind for kind in _TYPE_ORDER if kind in kinds), "fact")


def _fact(turn: TurnText, sentences: list[str], speaker: str | None = None) -> ExtractedFact:
    said = " ".join(sentences)
    signal = signals.score(said)
    speaker = turn.speaker.strip() if speaker is None else speaker
    content = _attributed(speaker, sentences)
    if len(content) > MAX_CONTENT_CHARS:  # "Caroline" for "I" can push a full piece over
        content = f"{speaker}: {said}"
    return ExtractedFact(
        content=content,
        memory_type=_memory_type(said, signal.kinds),
        confidence=EXPLICIT_CONFIDENCE if signal.high else DEFAULT_CONFIDENCE,
        tags=signal.kinds,
        event_time=_event_time(said, turn.timestamp),
        source_turns=(turn.turn_index,),
    )


def extract_offline(turn: TurnText, dialogue: Dialogue | None = None) -> list[ExtractedFact]:
    """Facts in one turn, without a model.

    A turn without a role returns ``[]`` only when empty or a pure greeting/filler; a turn with
    one only what it states (``stated``), and the user's self-introduction as one identity
    fact. A procedure (numbered steps, "first ..., then ...") stays one fact; other turns are
    split into sentences that stand on their own, each attributed to the speaker.

    Args:
        turn: the turn; ``timestamp`` anchors "yesterday" and the like.
        dialogue: what the turns before this one told (the user's name, the user's words);
            turns of one conversation share one, in order.
    """
    text = _tidy(turn.text)
    if turn.role is not None:
        return _extract_stated(turn, dialogue if dialogue is not None else Dialogue())
    if not text or is_filler(text):
        return []
    if "procedure" in signals.score(text).kinds:
        segments = [[text]]
    else:
        segments = _segments(_sentences(text)) or [[text]]
    budget = MAX_CONTENT_CHARS - len(turn.speaker) - 2
    return [_fact(turn, piece) for segment in segments for piece in _bounded(segment, budget)]


def _extract_stated(turn: TurnText, dialogue: Dialogue) -> list[ExtractedFact]:
    known = dialogue.user_name
    sentences = stated(turn, dialogue)
    facts = []
    if dialogue.user_name is not None and dialogue.user_name != known:
        facts.append(
            ExtractedFact(
                content=f"{IDENTITY_PREFIX}{dialogue.user_name}.",
                memory_type="fact",
                confidence=EXPLICIT_CONFIDENCE,
                tags=(),
                event_time=turn.timestamp,
                source_turns=(turn.turn_index,),
            )
        )
    corrected = [s for s in sentences if _NUMBER_CORRECTION.match(s) and dialogue.last_numbered]
    for sentence in corrected:
        facts.append(_number_corrected(turn, sentence, dialogue))
        sentences.remove(sentence)
    if not sentences:
        return facts
    speaker = dialogue.subject(turn)
    if "procedure" in signals.score(" ".join(sentences)).kinds:
        segments = [sentences]
    else:
        segments = _segments(sentences)
    budget = MAX_CONTENT_CHARS - len(speaker) - 2
    made = [
        _fact(turn, piece, speaker) for segment in segments for piece in _bounded(segment, budget)
    ]
    if turn.role == "user":
        numbered = [f.content for f in made if len(_NUMBER_TOKEN.findall(f.content)) == 1]
        dialogue.last_numbered = numbered[-1] if numbered else dialogue.last_numbered
    return facts + made


def _number_corrected(turn: TurnText, sentence: str, dialogue: Dialogue) -> ExtractedFact:
    """The statement a number correction refers to, with the new number: "Finance gave us 150
    euros per person" and "Actually it's 200 now" make "Finance gave us 200 euros per
    person (Actually it's 200 now)", a correction (the write path updates the old statement
    with it, keeping its history)."""
    said = dialogue.last_numbered or ""
    old = _NUMBER_TOKEN.search(said)
    new = _NUMBER_CORRECTION.match(sentence)
    assert old is not None and new is not None  # the caller checked both
    content = f"{said[: old.start()]}{new['number']}{said[old.end() :]}"
    dialogue.last_numbered = content
    return ExtractedFact(
        content=f"{content} ({sentence})",
        memory_type="correction",
        confidence=EXPLICIT_CONFIDENCE,
        tags=("correction",),
        event_time=turn.timestamp,
        source_turns=(turn.turn_index,),
    )


# ---------------------------------------------------------------- offline: roles

USER_LABEL = "The user"
ASSISTANT_LABEL = "Assistant"
# A name a person introduces themselves with: "I'm Maya", "Hi, it's Maya again", "my name is
# Maya Silva". Capitalized words only: "I'm allergic" is no name.
_INTRODUCTION = re.compile(
    r"^(?i:(?:hi|hey|hello|hiya|good\s+(?:morning|afternoon|evening))\b[\s,!.-]*"
    r"(?:there\b[\s,!.-]*)?)?"
    r"(?i:I['’]m|I\s+am|my\s+name\s+is|my\s+name['’]s|it['’]s|this\s+is|call\s+me)\s+"
    r"(?P<name>[A-ZÀ-Þ][^\W\d_]+(?:\s+[A-ZÀ-Þ][^\W\d_]+)?)(?:\s+again|\s+here)?"
    # the introduction alone, or its clause before what the sentence goes on to say
    r"(?:\s*[.!]*$|\s*[,;:-]\s*(?:and\s+)?(?P<rest>\S.*))"
)
_NOT_NAMES = _word_set(
    """Back Home Here Sorry Fine Good Great Okay Done Ready Sure Just Still Not Also So Very
    Really Glad Happy Excited Tired Busy Free Available Thai Italian English American"""
)
# The assistant addressing the user by name ("Of course, Sofia.", "Hi Tomás!"): the platform
# knows who it talks to.
_VOCATIVE = re.compile(
    r"^(?i:hi|hello|hey|thanks|thank\s+you|of\s+course|sure|sorry|great|okay|ok|welcome\s+back"
    r"|good\s+(?:morning|afternoon|evening)|got\s+it|noted|congratulations|congrats)"
    r"[,!]?\s+(?P<name>[A-ZÀ-Þ][^\W\d_]+)\s*[.!,?]"
)
# What an assistant says to keep a conversation going rather than to tell anything.
_ACKNOWLEDGEMENT = re.compile(
    r"^(?:noted|got\s+it|gotcha|of\s+course|sure(?:\s+thing)?|understood|ok(?:ay)?|alright"
    r"|all\s+right|great|perfect|absolutely|certainly|definitely|will\s+do"
    r"|sounds\s+(?:good|great|lovely)"
    r"|no\s+problem|happy\s+to\s+help|glad\s+to\s+help|you['’]re\s+welcome|thanks?(?:\s+you)?"
    r"|good\s+to\s+know|i\s+see|makes\s+sense|lovely|wonderful|nice|cute|cool|awesome"
    r"|that\s+(?:sounds|is|['’]s)\s+\w+|how\s+\w+|what\s+a\s+\w+|congrat\w*|welcome\s+back"
    r"|hello|hi|hey|done|bye|goodbye|see\s+you|take\s+care|have\s+a\s+\w+|sorry|oh\s+no"
    r"|enjoy|good\s+luck|fingers\s+crossed|excellent|brilliant|fantastic|amazing|yes|yay)\b",
    re.IGNORECASE,
)
# The assistant's own undertaking ("I'll avoid anything with peanuts"): the assistant's, never
# the user's rule.
_PROMISE = re.compile(
    r"^(?:(?:and|so|then)\s+)?(?:I['’]ll|I\s+will|I['’]m\s+going\s+to|I\s+am\s+going\s+to"
    r"|let\s+me|I\s+can|I\s+could|I['’]d\s+be\s+happy|I\s+would\s+be\s+happy"
    r"|I['’]ve\s+(?:noted|saved|added|updated|made\s+a\s+note)"
    r"|I\s+have\s+(?:noted|saved|added|updated)|I['’]ll\s+make\s+sure"
    r"|I\s+(?:will\s+)?(?:keep|note|remember)|I['’]m\s+(?:sorry|glad|happy)"
    # what the assistant recalls or supposes of the user is theirs to say, not a new fact
    r"|I\s+(?:also\s+)?(?:recall|remember|see|know|think|believe|understand|hope|guess))\b",
    re.IGNORECASE,
)
# The assistant speaking of the user ("So you'd like a flight on the 9th", "You might enjoy
# the walking tour", "Your appointment is at 3"): an echo of what the user said, or a
# suggestion, not something the user stated.
_ABOUT_THE_USER = re.compile(
    r"^(?:(?:so|and|ok|okay|right|then|also)[,\s]+)*(?:you|your|you['’](?:re|ve|ll|d)|yours)\b",
    re.IGNORECASE,
)
# Leaving: "Marco is off. Ciao!", "Tariq signing off", "Have a good weekend", "Happy Saturday".
_FAREWELL = re.compile(
    r"^(?:[A-Z]\w*\s+|I['’]m\s+|I\s+am\s+|we['’]re\s+)?(?:is\s+|are\s+)?(?:off|signing\s+off"
    r"|heading\s+off|logging\s+off|out)\b[^.!?]{0,20}[.!]?$"
    r"|\b(?:gotta|got\s+to|have\s+to)\s+go\b|\btalk\s+(?:to\s+you\s+)?(?:later|soon|tomorrow)\b"
    r"|^(?:have\s+a\s+(?:good|great|nice|lovely)\s+\w+|happy\s+(?:monday|tuesday|wednesday"
    r"|thursday|friday|saturday|sunday|weekend|holidays?)|good\s*night|see\s+you\b)",
    re.IGNORECASE,
)
# Someone the user introduces by their relation: "my old college friend Fatima", "a son,
# Idris", "my daughter Lucía".
_INTRODUCED_PERSON = re.compile(
    rf"\b{restate.RELATIONS}s?\s*,?\s+(?:named\s+|called\s+)?(?P<name>[A-ZÀ-Þ][^\W\d_]+)"
)
# A sentence that opens on "she", "he", "her" or "his": about the person last introduced.
_LEADING_PRONOUN = re.compile(
    r"^(?P<pre>(?:and|but|so|also|oh|well)[,\s]+)?(?P<pronoun>she|he|her|his)"
    r"(?P<is>['’]s)?\b",
    re.IGNORECASE,
)


def _resolved(sentence: str, dialogue: Dialogue) -> str:
    """``sentence`` with a leading pronoun replaced by the person it refers to ("She has a son"
    -> "Fatima has a son"), when the user introduced one and the sentence does not name them."""
    person = dialogue.last_person
    found = _LEADING_PRONOUN.match(sentence)
    if person is None or found is None or person in sentence:
        return sentence
    pronoun = found["pronoun"].lower()
    if pronoun in ("her", "his") and not found["is"]:
        said = f"{person}'s"
    else:
        said = f"{person} is" if found["is"] else person
    return f"{found['pre'] or ''}{said}{sentence[found.end() :]}"


# A correction of a number by reference ("Actually it's 200 now", "Sorry, make that 14"): it
# says nothing without the statement it corrects.
_NUMBER_TOKEN = re.compile(r"\d+(?:[.,:]\d+)*")
_NUMBER_CORRECTION = re.compile(
    r"^(?:(?:oh\s+)?(?:actually|no|sorry|correction|wait|oops|update|i\s+meant|scratch\s+that"
    r"|hang\s+on|my\s+bad)\b[,:!.\s]*)+(?:it['’]s|it\s+is|it\s+will\s+be|it['’]ll\s+be"
    r"|make\s+(?:it|that)|that['’]s|it\s+was|it\s+went\s+up\s+to|it\s+changed\s+to)\s+"
    r"(?:now\s+|actually\s+)?(?:[$€£]\s*)?(?P<number>\d+(?:[.,:]\d+)*)\b",
    re.IGNORECASE,
)
# Words that say nothing of their own when an echo is measured.
_FUNCTION_WORDS = _word_set(
    """a an the and or but so to of in on at for with by from as is are was were be been am
    i me my you your it its this that these those there here we our they them their he she his
    her him now then just really very also too not no yes do does did have has had will would
    can could should shall may might must get got going go s t re ve ll d m"""
)
ECHO_SHARE = 0.6  # an assistant sentence whose words are mostly the user's repeats them
# An echo's own words around what it repeats ("150 euros a head, noted").
_ECHO_IGNORED = _word_set("noted got it ok okay sure so then great thanks head each per")
MIN_ASSISTANT_WORDS = 5  # shorter ones are reactions ("Beagles are lovely.")


@dataclass
class Dialogue:
    """What extraction knows of a conversation while it reads its turns in order: the user's
    name once told (the subject the user's statements are written about) and the words the
    user said (an assistant sentence made mostly of them echoes the user)."""

    user_name: str | None = None
    user_words: set[str] = field(default_factory=set)
    # The user's last statement holding one number, as written: what "actually it's 200 now"
    # corrects.
    last_numbered: str | None = None
    # The person the user last introduced ("my friend Fatima"): who "she" is next.
    last_person: str | None = None

    def subject(self, turn: TurnText) -> str:
        """Who a turn's "I" is: its speaker's name, the user's name or "The user", "Assistant"."""
        if turn.role == "assistant":
            return ASSISTANT_LABEL
        if turn.role == "user" and turn.speaker.strip().lower() in ("", "user"):
            return self.user_name or USER_LABEL
        return turn.speaker.strip()


def _content_words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)} - _FUNCTION_WORDS


def introduced_name(sentence: str) -> tuple[str, str] | None:
    """The name a self-introduction gives and what the sentence says besides ("Hi, I'm Maya."
    -> ("Maya", ""); "I'm Chloé, I live in Lyon." -> ("Chloé", "I live in Lyon.")), or None."""
    found = _INTRODUCTION.match(sentence.strip())
    if found is None or found["name"].split()[0] in _NOT_NAMES:
        return None
    rest = found["rest"] or ""
    return found["name"], rest[:1].upper() + rest[1:]


def _user_sentence(sentence: str) -> str | None:
    """What a user's sentence states: itself, the statement before a question ("I'm flying to
    Rome on Friday, any tips?" -> "I'm flying to Rome on Friday."), or None for a question."""
    if not sentence.rstrip().endswith("?"):
        return sentence
    head, comma, _ = sentence.rpartition(",")
    if comma and _FIRST_PERSON.search(head) and len(_WORD.findall(head)) >= 4:
        return head.rstrip() + "."
    return None


# Words a reply to the assistant is made of when it says nothing of its own ("Yes, please.",
# "Maybe later!"); a transcript without roles keeps such turns (``is_filler``).
_CHATTER = _word_set(
    """yes no please maybe ciao salut hola hallo bonjour ola aloha later soon take care perfect
    exactly indeed sounds definitely absolutely right true sure fine course worries problem
    all that's thats appreciate ha thanks thank great cool nothing much bored"""
)


def _chatter(sentence: str, dialogue: Dialogue) -> bool:
    """A user's sentence that says nothing to keep: a farewell, or only function words,
    fillers and their own name ("Yes, please.", "Marco again!")."""
    if _FAREWELL.search(sentence):
        return True
    name = {w.lower() for w in (dialogue.user_name or "").split()}
    said = {w for w in _content_words(sentence) if not _is_filler_word(w)} - name - _CHATTER
    return not said and not any(ch.isdigit() for ch in sentence)


def _assistant_tells(sentence: str, dialogue: Dialogue) -> bool:
    """True when an assistant's sentence tells something: not a question, an acknowledgement,
    a reaction, a promise, or an echo of the user's words."""
    words = _WORD.findall(sentence)
    if sentence.rstrip().endswith("?") or len(words) < MIN_ASSISTANT_WORDS:
        return False
    if _ACKNOWLEDGEMENT.match(sentence) or _PROMISE.match(sentence):
        return False
    if _ABOUT_THE_USER.match(sentence):
        return False
    said = _content_words(sentence) - _ECHO_IGNORED
    return bool(said) and len(said & dialogue.user_words) < ECHO_SHARE * len(said)


def stated(turn: TurnText, dialogue: Dialogue) -> list[str]:
    """The sentences of a turn with a role that state something worth a memory (and, as a side
    effect, what ``dialogue`` learns of the user from it)."""
    text = _tidy(turn.text)
    if turn.role in ("tool", "system") or not text:
        return []
    kept: list[str] = []
    for sentence in _sentences(text):
        if is_filler(sentence):
            continue
        if turn.role == "assistant":
            addressed = _VOCATIVE.match(sentence)
            if addressed and addressed["name"].split()[0] not in _NOT_NAMES:
                dialogue.user_name = dialogue.user_name or addressed["name"]
            if _assistant_tells(sentence, dialogue):
                kept.append(sentence)
            continue
        introduced = introduced_name(sentence)
        if introduced is not None:
            dialogue.user_name, sentence = introduced
            if not sentence:
                continue
        statement = _user_sentence(sentence)
        if statement is not None and not _chatter(statement, dialogue):
            statement = _resolved(statement, dialogue)
            kept.append(statement)
            people = _INTRODUCED_PERSON.findall(statement)
            dialogue.last_person = people[-1] if people else dialogue.last_person
    if turn.role == "user":
        dialogue.user_words |= _content_words(text)
    return kept
