"""Standing instructions: a memory that tells how to answer a kind of request ("Always include
version numbers when I ask about software dependencies", "Whenever I ask about deadlines,
format dates month-day-year", "Never use jargon when I ask for a summary").

Such a memory applies whenever a later context asks about that kind of thing, and that context
rarely shares its words: "Which libraries are used in this project?" says nothing of version
numbers. So the request it applies to, its condition ("software dependencies"), is kept on the
node (``applies_when``, with ``standing_in``, its namespace, which only instructions carry and an
index holds, so that a namespace's rules are found without reading the namespace),
derived from the content wherever the content is written: created, updated by a write decision,
imported, and once for the memories a store held before (`write.migrate.standing`). Recall
matches a context against the conditions (`recall.standing`).

What counts, by rules only (no model): an imperative sentence, one that opens with a directive
(always, never, don't, do not, make sure, be sure, remember to, avoid, only, please ...) and
holds a condition clause of the person's request ("when I ask about X", "whenever we discuss
X", "if I request X"), or one that opens with the condition and goes on with a directive
("When I ask about X, always ..."). A statement about oneself ("I always smile when I talk
about my kids") is not an instruction: it opens with its subject.

Constraints and never-do rules stand the same way, with a domain for condition: an allergy or a
diet applies to whatever is about food ("What should I cook for Maya tonight?"), a budget to
buying, a fear of flying or a rule about layovers to travel, an unavailability to scheduling.
Such a task rarely shares a word with its constraint, and the embedding model does not tie
"flight" to "layovers" reliably, so a domain is a fixed condition text (``DOMAINS``) with a
lexicon of the requests it covers, and recall matches a context to it by that lexicon as well
as by the condition's embedding (`recall.standing`). What counts as a constraint is its form,
not a topic word: "allergic to", "can't eat", "my budget is", "afraid of flying", or an
imperative never-do ("Never book overnight layovers"); "we went to a vegan restaurant" is not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

# The longest condition kept, and the longest sentence read as an instruction: instructions
# are short; a long sentence holding "when I ask" is a story or an explanation.
MAX_CONDITION_CHARS = 200
MAX_SENTENCE_CHARS = 400
# The longest memory read as a constraint.
MAX_CONSTRAINT_WORDS = 40

_A = "['’]"
_DIRECTIVE = (
    rf"(?:please\s+)?(?:always|never|don{_A}?t|do\s+not|make\s+sure|be\s+sure|remember\s+to"
    r"|avoid|only|stop|use|include|format|keep|give|provide|show|add|answer|respond|reply"
    r"|write|explain|list|mention|start|end|mark|put|prefer)\b"
)
# The person's request: "when I ask about", "whenever we discuss", "if I request", "any time I
# need help with".
_REQUEST = (
    r"(?:when(?:ever)?|if|any\s*time|each\s+time|every\s+time)\s+(?:I|we)\s+"
    r"(?:am\s+|are\s+)?(?:ask|asks|asking|request|requesting|inquire|inquiring|need|want"
    r"|talk|talking|discuss|discussing|bring\s+up|mention|work|working|look|looking|query)"
    r"(?:\s+(?:you\s+)?(?:about|for|on|regarding|into|at|with|to|help\s+with|advice\s+on))*\s+"
)
# The condition runs to the end of its clause: a comma, a semicolon, a dash or the sentence end.
_CONDITION = r"(?P<condition>[^,;:.!?\n–—]{2,})"
# What may open an instruction before its directive or condition: "Actually, always ...", "From
# now on, never ...", "Oh, and when I ask ...".
_OPENING = (
    r"(?:(?:actually|also|and|so|oh|ok|okay|hey|btw|from\s+now\s+on|going\s+forward"
    r"|in\s+(?:the\s+)?future|one\s+more\s+thing)\b[\s,:-]*)*"
)
_DIRECTIVE_FIRST = re.compile(rf"^{_OPENING}{_DIRECTIVE}.*?\b{_REQUEST}{_CONDITION}", re.IGNORECASE)
_CONDITION_FIRST = re.compile(rf"^{_OPENING}{_REQUEST}{_CONDITION},\s*{_DIRECTIVE}", re.IGNORECASE)
# "User: ...", "Jon: ...": a speaker label before the text.
_SPEAKER = re.compile(r"^[A-Za-z][\w .'-]{0,40}:\s+")
_ASSISTANT = re.compile(r"^\s*assistant\s*:", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Domain:
    """A kind of request constraints apply to: the condition text stored on such a memory, the
    requests it covers (a context naming any of these words), the constraint forms that bind
    a statement to it."""

    condition: str
    requests: re.Pattern[str]
    forms: re.Pattern[str]


def _words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(alternatives) + r")\b", re.IGNORECASE)


_CANT = (
    rf"(?:can{_A}?t|cannot|can\s+not|won{_A}?t|don{_A}?t|doesn{_A}?t|do\s+not|does\s+not|never"
    rf"|must\s+not|shouldn{_A}?t)"
)
_RULE = rf"^(?:please\s+)?(?:never|don{_A}?t|do\s+not|avoid|no)\b"
DOMAINS: tuple[Domain, ...] = (
    Domain(
        "food: meals, cooking, recipes, restaurants, eating",
        _words(
            r"cook\w*",
            r"bak(?:e|es|ed|ing)",
            r"recipes?",
            r"meals?",
            r"dinners?",
            r"lunch\w*",
            r"breakfasts?",
            r"brunch",
            r"snacks?",
            r"food",
            r"eat\w*",
            r"ate",
            r"restaurants?",
            r"menus?",
            r"dish(?:es)?",
            r"grocer\w*",
            r"cater\w*",
            r"desserts?",
            r"cakes?",
            r"drinks?",
            r"diet\w*",
            r"bbq|barbecue",
            r"picnics?",
            r"ingredients?",
            r"treats?",
            r"feed\w*",
            r"takeaway|takeout|delivery",
        ),
        re.compile(
            rf"\ballerg(?:y|ies|ic)\b|\bintoleran(?:t|ce)\b|\b(?:coeliac|celiac|diabetic)\b"
            rf"|\b(?:is|am|are|{_A}m|{_A}re|{_A}s)\s+(?:a\s+|strictly\s+|now\s+)?"
            rf"(?:vegetarian|vegan|pescatarian|gluten[- ]free|dairy[- ]free|halal|kosher)\b"
            rf"|\b{_CANT}\s+(?:eat|drink|have|touch|digest|tolerate)\b"
            rf"|{_RULE}.*\b(?:serve|cook|order|food|meals?|eat|drink|dishes)\b",
            re.IGNORECASE,
        ),
    ),
    Domain(
        "spending: buying, prices, costs, bookings",
        _words(
            r"buy\w*",
            r"bought",
            r"purchas\w*",
            r"pric\w*",
            r"costs?",
            r"spend\w*",
            r"shop\w*",
            r"order\w*",
            r"afford\w*",
            r"pay\w*",
            r"rent\w*",
            r"subscri\w*",
            r"gifts?",
            r"presents?",
            r"deals?",
            r"quotes?",
            r"bookings?",
            r"book",
            r"reserv\w*",
            r"hotels?",
            r"flights?",
            r"tickets?",
            r"laptops?",
            r"cars?",
        ),
        re.compile(
            rf"\bbudget\b[^.!?]{{0,40}}?(?:\bis|\bof|:|\baround|\babout|\bunder|\bmax\w*)"
            rf"\s*[$€£]?\s*\d|\b(?:my|our|the\s+user{_A}s|[A-Z]\w*{_A}s)\s+budget\b"
            rf"(?!\s+(?:tracker|app|sheet))|\b{_CANT}\s+(?:afford|spend)\b"
            rf"|\b(?:spend|pay|cost)\w*\s+(?:at\s+most|no\s+more\s+than|more\s+than|over|up\s+to)\b"
            rf"|\b(?:no\s+more\s+than|at\s+most|maximum\s+of|max\.?)\s+[$€£]?\d",
            re.IGNORECASE,
        ),
    ),
    Domain(
        "travel: flights, trips, hotels, outings",
        _words(
            r"travel\w*",
            r"trips?",
            r"flights?",
            r"fly\w*",
            r"flew",
            r"airports?",
            r"airlines?",
            r"hotels?",
            r"hostels?",
            r"airbnb",
            r"vacations?",
            r"holidays?",
            r"itinerar\w*",
            r"journeys?",
            r"trains?",
            r"cruises?",
            r"tours?",
            r"visit\w*",
            r"outings?",
            r"day\s+out",
            r"excursions?",
            r"hik\w*",
            r"layovers?",
            r"connections?",
            r"road\s+trip",
            r"getaway",
            r"book\s+(?:a|me|us|him|her|them)",
            r"destinations?",
        ),
        re.compile(
            rf"\b(?:afraid|scared|terrified)\s+of\s+(?:flying|heights|boats|water|crowds)\b"
            rf"|\bfear\s+of\s+(?:flying|heights)\b|\b(?:motion|sea|car)[- ]?sick\w*\b"
            rf"|\bwheelchair\b|\bbad\s+(?:knee|knees|back|hip)\b|\bpregnan(?:t|cy)\b"
            rf"|\b{_CANT}\s+(?:walk|climb|swim|drive|fly)\b"
            rf"|{_RULE}.*\b(?:layovers?|flights?|red[- ]eyes?|hotels?|hostels?|seats?|trains?"
            rf"|fly)\b"
            # a standing travel preference: "Aisle, always aisle", "always a window seat"
            rf"|\b(?:always|only|never)\b[^.!?]{{0,30}}\b(?:aisle|window\s+seats?|middle\s+seats?"
            rf"|exit\s+rows?|direct\s+flights?|red[- ]eyes?)\b"
            rf"|\b(?:aisle|window)\b[^.!?]{{0,30}}\balways\b",
            re.IGNORECASE,
        ),
    ),
    Domain(
        "scheduling: meetings, calls, appointments, calendar",
        _words(
            r"schedul\w*",
            r"meetings?",
            r"calls?",
            r"appointments?",
            r"calendar\w*",
            r"slots?",
            r"sync",
            r"stand-?ups?",
            r"interviews?",
            r"invites?",
            r"reschedul\w*",
            r"set\s+up\s+a",
            r"availab\w*",
            r"book\s+a\s+time",
        ),
        re.compile(
            rf"\b(?:not\s+available|unavailable)\b"
            rf"|\b{_CANT}\s+(?:do|make|meet|attend|take)\s+(?:\w+\s+)?(?:mornings?|evenings?|"
            rf"weekends?|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|meetings?)\b"
            rf"|{_RULE}.*\b(?:meetings?|schedul\w*|appointments?)\b",
            re.IGNORECASE,
        ),
    ),
)
# An instruction without a "when I ask" clause names its domain by what it is about: "always
# use metric with me" (units), "give times in SGT" (times), a clause of a longer sentence.
_IMPERATIVE_CLAUSE = (
    r"(?:^|[,;:]\s*)(?:please\s+)?(?:always|never|only|use|give|convert|keep|show|put|write"
    r"|quote|list|state|express)\b[^,;.!?]*"
)
DOMAINS = (
    *DOMAINS,
    Domain(
        "units: distances, weights, temperatures, measurements",
        _words(
            r"how\s+(?:long|far|much|heavy|big|tall|hot|cold|warm|fast)",
            r"distances?",
            r"weigh\w*",
            r"temperatures?",
            r"measur\w*",
            r"km",
            r"kilomet\w*",
            r"miles?",
            r"kg",
            r"pounds?",
            r"run\w*",
            r"training",
            r"pace",
            r"recipes?",
            r"weather",
            r"heights?",
            r"lengths?",
            r"size",
            r"speed",
        ),
        re.compile(
            _IMPERATIVE_CLAUSE + r"\b(?:metric|imperial|kilomet\w*|km|miles?|pounds?|kilograms?"
            r"|kg|celsius|fahrenheit|feet|inches|units?)\b",
            re.IGNORECASE,
        ),
    ),
    Domain(
        "times: when things happen, dates, time zones",
        _words(
            r"when",
            r"what\s+time",
            r"start\w*",
            r"begin\w*",
            r"ends?",
            r"schedul\w*",
            r"meetings?",
            r"calls?",
            r"deadlines?",
            r"appointments?",
            r"keynotes?",
            r"flights?",
            r"departures?",
            r"depart\w*",
            r"arriv\w*",
            r"o['’]clock",
            r"tonight",
            r"tomorrow",
            r"times?",
            r"dates?",
            r"launch\w*",
            r"events?",
        ),
        re.compile(
            _IMPERATIVE_CLAUSE + r"\b(?:time\s*zones?|timezone|SGT|UTC|GMT|CET|CEST|PST|PDT|EST"
            r"|EDT|BST|IST|JST|AEST|local\s+time|24[- ]hour|am/pm|date\s+format|dates?)\b",
            re.IGNORECASE,
        ),
    ),
    Domain(
        "contact: how to reach the person, calls, emails, messages",
        _words(
            r"follow\s+up",
            r"contact\w*",
            r"reach\w*",
            r"call\w*",
            r"phon\w*",
            r"email\w*",
            r"e-mail\w*",
            r"messag\w*",
            r"notif\w*",
            r"get\s+in\s+touch",
            r"remind\w*",
            r"let\s+\w+\s+know",
            r"tell\s+(?:him|her|them)",
            r"update\s+(?:him|her|them)",
            r"ping",
            r"text\s+(?:him|her|them|me)",
            r"whatsapp",
            r"slack",
        ),
        re.compile(
            rf"\b{_CANT}\s+(?:take|answer|do|pick\s+up)\s+(?:phone\s+)?calls\b"
            rf"|\b(?:don{_A}?t|do\s+not|never|please\s+don{_A}?t)\s+(?:call|phone|ring|text"
            rf"|whatsapp|email|message)\b|\b(?:email|text|phone|whatsapp|slack)\s+only\b"
            rf"|\bonly\s+(?:by\s+|via\s+)?(?:email|text|phone|whatsapp|slack)\b"
            rf"|\bprefers?\s+(?:to\s+be\s+contacted|contact|being\s+contacted)\s+(?:by|via)\b",
            re.IGNORECASE,
        ),
    ),
)
IDENTITY_PREFIX = "The user's name is "
USER = "the user"


def user_name(content: str) -> str | None:
    """The name an identity memory ("The user's name is Maya.") gives, or None."""
    if not content.startswith(IDENTITY_PREFIX):
        return None
    return content.removeprefix(IDENTITY_PREFIX).rstrip(".").strip() or None


def as_user(text: str, name: str | None) -> str:
    """``text`` with the user's name written as "the user" (how extraction writes what the user
    says of themselves before it knows their name), or ``text`` if it does not name them."""
    if not name:
        return text
    return re.sub(rf"\b{re.escape(name)}\b", USER, text, flags=re.IGNORECASE)


# Who the user is: their name (`write.extract` writes "The user's name is Maya." when they say
# it), for "what's my name?" and for extraction to write the user's statements about them.
IDENTITY = Domain(
    "identity: the user's name, who the user is",
    _words(r"my\s+name", r"who\s+am\s+i", r"call\s+me", r"about\s+me", r"my\s+profile"),
    re.compile(r"^the\s+user['’]s\s+name\s+is\s+[A-Z]", re.IGNORECASE),
)
DOMAINS = (*DOMAINS, IDENTITY)
_BY_CONDITION = {d.condition: d for d in DOMAINS}


def domain(condition_text: str | None) -> Domain | None:
    """The domain whose fixed condition text this is (None for an instruction's own clause)."""
    return _BY_CONDITION.get(condition_text or "")


def _sentences(content: str) -> list[str]:
    text = _SPEAKER.sub("", content.strip(), count=1)
    sentences = [s.strip().strip("*_\"'` ") for s in _SENTENCE.split(text)]
    return [s for s in sentences if s and len(s) <= MAX_SENTENCE_CHARS]


def instruction(content: str) -> str | None:
    """The request ``content`` is a standing instruction for (its first one's condition clause:
    "software dependencies"), or None."""
    for sentence in _sentences(content):
        found = _DIRECTIVE_FIRST.search(sentence) or _CONDITION_FIRST.search(sentence)
        if found:
            clause = _SPACE.sub(" ", found["condition"]).strip()
            if clause:
                return clause[:MAX_CONDITION_CHARS]
    return None


def condition(content: str) -> str | None:
    """The request ``content`` stands for: an instruction's own condition clause, else the
    condition of the domain a constraint, a never-do rule or the user's name binds it to; or
    None. A constraint is the person's and short: an assistant's answer, or a long turn that
    holds an imperative somewhere ("don't forget to schedule the review"), stands for
    nothing."""
    found = instruction(content)
    if found is not None:
        return found
    if _ASSISTANT.match(content) or len(content.split()) > MAX_CONSTRAINT_WORDS:
        return None
    for sentence in _sentences(content):
        for d in DOMAINS:
            if d.forms.search(sentence):
                return d.condition
    return None


def props(namespace: str, content: str) -> dict[str, Any]:
    """The node properties a memory of ``namespace`` saying ``content`` gets: its condition and
    ``standing_in`` (the namespace) when it is a standing instruction, else both null (a write
    that replaces the content removes them)."""
    found = condition(content)
    return {"applies_when": found, "standing_in": namespace if found else None}
