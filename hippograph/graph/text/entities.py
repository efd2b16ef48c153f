"""People, places and things a statement names, and the relationships it states between them,
read by rules (no model: see docs/research/entities.md for why).

- The speaker of a turn ("Caroline: ...") is its subject; "I", "my" are the speaker, or the
  user where no speaker is known (``USER``).
- Names are capitalised runs, acronyms and technical casing (`text.names`); a lone capitalised
  word opening a sentence is ``weak``: kept only where the namespace already knows that name.
- A relation word introduces a person ("my sister Ana", "Ana, my sister", "Ana is my sister",
  "Caroline's friend Mel"): the person gets the alias ("caroline's sister") and a relationship
  to the owner (``SISTER_OF``). The alias alone ("my sister") names the person it was introduced
  with, if the namespace knows one.
- Single-valued attributes of the subject (`statements.attributes`: employer, home, tool)
  become ``WORKS_AT``, ``LIVES_IN`` and ``USES``; "no longer works at" ends one.

A kind is guessed from the words around a name (``in Lisbon``: location; ``Acme Inc``:
organisation; ``the Pride Parade``: event; ``Neo4j``: tool); a lone name without a cue is a
person, in conversation the likeliest reading.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from hippograph.graph.text import names, places, statements
from hippograph.graph.text.standing import IDENTITY_PREFIX, USER

KINDS: tuple[str, ...] = (
    "person", "organisation", "location", "event", "object", "project", "tool", "animal",
)  # fmt: skip
ROLES: tuple[str, ...] = ("subject", "object", "other")
# A relationship type: what `relate` accepts and Browser shows (WORKS_AT, SISTER_OF).
TYPE_NAME = re.compile(r"[A-Z][A-Z0-9_]{0,39}")
KIND_NAME = re.compile(r"[a-z][a-z0-9_-]{0,29}")
# Types of which a subject holds one at a time: a new one ends the open one.
SINGLE_VALUED: frozenset[str] = frozenset({"WORKS_AT", "LIVES_IN"})


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_KIN = {
    "mom": "mother", "mum": "mother", "mommy": "mother", "dad": "father", "daddy": "father",
    "coworker": "colleague", "co-worker": "colleague", "neighbour": "neighbor",
    "grandma": "grandmother", "grandpa": "grandfather", "bf": "boyfriend", "gf": "girlfriend",
    "hubby": "husband", "kid": "child", "kids": "child", "children": "child",
}  # fmt: skip
# A relation word alone names someone only where people have one of them ("my mom"); "my
# friend" or "my sister" may be any of several, and a wrong merge is worse than a missed one.
_ONE_OF = _words(
    """mother father wife husband partner spouse fiance fiancee fiancé fiancée girlfriend
    boyfriend boss manager landlord supervisor therapist dentist doctor dog cat"""
)
_PETS = frozenset({"dog", "cat", "puppy", "kitten", "pet", "horse", "rabbit", "bunny", "parrot"})
_RELATION = (
    r"(?P<rel>sister|brother|mother|mom|mum|father|dad|wife|husband|partner|spouse|fianc[ée]e?"
    r"|girlfriend|boyfriend|son|daughter|kid|child|baby|aunt|uncle|cousin|niece|nephew"
    r"|grandma|grandpa|grandmother|grandfather|friend|bestie|boss|manager|colleague|coworker"
    r"|co-worker|neighbou?r|roommate|flatmate|teacher|doctor|dentist|therapist|coach|mentor"
    r"|supervisor|landlord|client|dog|cat|puppy|kitten|pet|horse|rabbit|bunny|parrot)s?"
)
_ADJECTIVES = (
    r"(?:(?:old|best|little|big|younger|older|late|ex-?|new|dear|lovely|sweet|oldest|youngest"
    r"|baby|elder|step-?|college|childhood|school|work)\s+)*"
)
_NAME = r"(?P<name>[A-ZÀ-Þ][^\W\d_]+(?:\s+[A-ZÀ-Þ][^\W\d_]+)?)"
_OWNER = r"(?P<owner>\b(?:[Mm]y|[Oo]ur)|\b(?:[Tt]he user|[A-ZÀ-Þ][^\W\d_]+)['’]s)"
_INTRODUCED = re.compile(
    rf"{_OWNER}\s+{_ADJECTIVES}{_RELATION}\s*,?\s+(?:(?:named|called)\s+)?{_NAME}"
)
_IS_RELATION = re.compile(rf"{_NAME}(?:\s+is|\s*,)\s+{_OWNER}\s+{_ADJECTIVES}{_RELATION}\b")
_RELATION_ONLY = re.compile(rf"{_OWNER}\s+{_ADJECTIVES}{_RELATION}\b(?!\s*,?\s+[A-Z])")
_ENDED = re.compile(
    r"\b(?:no\s+longer|not\s+any\s?more|quit|left|stopped\s+working)\b", re.IGNORECASE
)
_ATTRIBUTE_TYPES = {"employer": "WORKS_AT", "home": "LIVES_IN", "tool": "USES"}
_ATTRIBUTE_KINDS = {"WORKS_AT": "organisation", "LIVES_IN": "location", "USES": "tool"}

_SKIP = _words(
    """i i'm i've i'll i'd ok okay tv lol omg btw fyi asap am pm diy wow hey hi hello thanks
    yes no yeah oh god mr mrs ms dr monday tuesday wednesday thursday friday saturday sunday
    january february march april may june july august september october november december
    mon tue tues wed thu thur thurs fri sat sun thankfully hopefully honestly luckily finally
    actually basically definitely totally seriously anyway anyways"""
)
# Words that open a run of capitals without being part of the name: "Congrats Caroline",
# "Happy Easter", "Last Fri".
_LEADERS = _words(
    """congrats congratulations woohoo wow hey hi hello thanks yay omg aww oh ah dear happy
    good great nice awesome cool bye welcome sorry yes yeah ok okay last next this"""
)
_ORGANISATION = _words(
    """inc ltd llc corp corporation company co university college school academy institute
    bank group foundation hospital church club center centre agency studio studios labs lab
    society association council team clinic shelter"""
)
_EVENT = _words(
    """festival conference parade party wedding concert marathon fair summit tournament
    championship cup games show race day week night expo convention gala ceremony
    christmas easter thanksgiving halloween diwali hanukkah pride"""
)
_LOCATION = _words(
    """street avenue road park lake river mountain mountains beach island islands city county
    state bay valley canyon falls forest square bridge station airport hotel restaurant cafe
    museum gallery mall market"""
)
_PLACE_CUE = re.compile(
    r"(?:\b(?:in|from|near|visit|visited|visiting|around|across|toward|towards|to|at)"
    r"(?:\s+the)?\s*)$",
    re.IGNORECASE,
)
_MOTION_TO = re.compile(
    r"\b(?:went|go|goes|going|moved|move|moving|trip|travel+ed|travel+ing|flew|fly|flying|drove"
    r"|headed|back|road\s+trip|vacation|holiday|way)\s+(?:back\s+)?to(?:\s+the)?\s*$",
    re.IGNORECASE,
)
_WORK_AT = re.compile(r"\b(?:work|works|worked|working|job|intern\w*)\s+(?:at|for)\s*$", re.I)
_PERSON_CUE = re.compile(r"\b(?:mr|mrs|ms|dr|prof|with|named|called|met|told|asked)\.?\s*$", re.I)
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Mention:
    """A thing the text names. ``name`` is as written; ``alias_only``: only the alias names it
    ("my sister"), and it counts only where the namespace knows who that is."""

    name: str
    kind: str
    role: str  # subject, object or other
    aliases: tuple[str, ...] = ()
    weak: bool = False  # a lone word opening a sentence: kept only if the namespace knows it
    alias_only: bool = False
    cued: bool = True  # the kind was read from a cue, not guessed

    @property
    def canonical(self) -> str:
        return canonical(self.name)


@dataclass(frozen=True, slots=True)
class Relation:
    """A relationship the text states: ``source`` TYPE ``target`` (names as written)."""

    source: str
    type: str
    target: str
    ended: bool = False  # the text says it holds no longer


@dataclass(frozen=True)
class Found:
    mentions: tuple[Mention, ...] = ()
    relations: tuple[Relation, ...] = field(default=())


Adder = Callable[[Mention], None]


def canonical(name: str) -> str:
    """The form names are compared in: NFKC, casefolded, a possessive and a leading "the"
    dropped, spaces collapsed ("The  Beatles's" -> "beatles")."""
    text = unicodedata.normalize("NFKC", name).casefold().replace("’", "'").strip(" .,;:!?\"'")
    text = _SPACE.sub(" ", text)
    text = text[:-2] if text.endswith("'s") else text
    if text.startswith("the ") and len(text) > 4 and not text.startswith(USER):
        return text[4:]
    return text


def _kin(word: str) -> str:
    """The relation word in its one form ("mum" -> mother, "dogs" -> dog)."""
    word = word.lower()
    word = word if word in ("boss",) else word.rstrip("s")
    return _KIN.get(word, word)


def relation_type(word: str) -> str:
    """``SISTER_OF`` for "sister", ``MOTHER_OF`` for "mum", ``PET_OF`` for "dog"."""
    word = _kin(word)
    return "PET_OF" if word in _PETS else f"{word.upper().replace('-', '_')}_OF"


def find(text: str, speaker: str | None = None) -> Found:
    """What ``text`` names and states (see the module). ``speaker``: who said it, when known."""
    body = text
    if speaker and text.startswith(f"{speaker}:"):
        body = text[len(speaker) + 1 :].lstrip()
    me = speaker or USER
    mentions: dict[str, Mention] = {}
    relations: list[Relation] = []

    def add(mention: Mention) -> None:
        key = mention.canonical if not mention.alias_only else f"alias:{mention.aliases[0]}"
        old = mentions.get(key)
        if old is None:
            mentions[key] = mention
            return
        role = min(old.role, mention.role, key=ROLES.index)
        aliases = tuple(dict.fromkeys((*old.aliases, *mention.aliases)))
        mentions[key] = replace(old, role=role, aliases=aliases, weak=old.weak and mention.weak)

    if speaker:
        add(Mention(speaker, "person", "subject"))
    if body.startswith(IDENTITY_PREFIX):
        named = body[len(IDENTITY_PREFIX) :].strip().rstrip(".")
        if named:
            add(Mention(named, "person", "subject", aliases=(USER,)))
        return Found(tuple(mentions.values()), ())
    _introductions(body, me, add, relations)
    subject = _subject(body, speaker)
    for name in map(_led, names.found(body)):
        lower = name.text.casefold()
        if not name.text or lower in _SKIP or lower in places.DEMONYMS:
            continue
        if canonical(name.text) in mentions:
            continue
        role = "subject" if subject and canonical(name.text) == subject else "other"
        kind, cued = _kind(body, name)
        add(Mention(name.text, kind, role, weak=name.opening, cued=cued))
    lead = _INTRODUCED.match(body)
    if lead is not None:  # "My sister Ana lives in Porto": Ana's home
        named = _trimmed(lead["name"])
        _attributes(named + body[lead.end() :], None, canonical(named), mentions, add, relations)
    else:
        _attributes(body, speaker, subject, mentions, add, relations)
    return Found(tuple(mentions.values()), tuple(relations))


def _led(name: names.Name) -> names.Name:
    """``name`` without the greeting or time word that opens it ("Congrats Caroline")."""
    first, _, rest = name.text.partition(" ")
    if first.casefold() not in _LEADERS:
        return name
    return names.Name(rest, name.start + len(first) + 1, False, name.technical)


def _owner(raw: str, me: str) -> str:
    raw = raw.replace("’", "'")
    if raw.lower() in ("my", "our"):
        return me
    return raw[:-2]


def _introductions(body: str, me: str, add: Adder, relations: list[Relation]) -> None:
    """People and pets introduced by a relation word, with their alias and relationship."""
    named_spans: list[tuple[int, int]] = []
    for pattern in (_INTRODUCED, _IS_RELATION):
        for found in pattern.finditer(body):
            name = _trimmed(found["name"])
            if name.casefold() in _SKIP:
                continue
            owner = _owner(found["owner"], me)
            word = found["rel"].lower()
            kind = "animal" if relation_type(word) == "PET_OF" else "person"
            alias = f"{canonical(owner)}'s {_kin(word)}"
            add(Mention(owner, "person", "subject" if owner == me else "other"))
            add(Mention(name, kind, "object", aliases=(alias,)))
            relations.append(Relation(name, relation_type(word), owner))
            named_spans.append(found.span())
    for found in _RELATION_ONLY.finditer(body):
        word = found["rel"].lower()
        if any(a <= found.start() < b for a, b in named_spans) or _kin(word) not in _ONE_OF:
            continue
        owner = _owner(found["owner"], me)
        alias = f"{canonical(owner)}'s {_kin(word)}"
        add(Mention(alias, "person", "other", aliases=(alias,), alias_only=True))


def _trimmed(name: str) -> str:
    """A name without a second word that is no name ("Ana Is", "Mel And")."""
    words = name.split()
    if len(words) == 2 and words[1].casefold() in _FOLLOWERS:
        return words[0]
    return name


# Words after a name that are no part of it.
_FOLLOWERS = _words(
    "is was and or but said says told lives works has had will would who which that"
)


def _subject(body: str, speaker: str | None) -> str | None:
    """The canonical name the statement is about: the speaker's, or its leading name."""
    if speaker:
        return canonical(speaker)
    found = statements.subject(body)
    if found is None or found in _SKIP:
        return None
    if found.startswith("the user"):
        return USER
    return found


def _kind(body: str, name: names.Name) -> tuple[str, bool]:
    """The kind of ``name`` and whether a cue said it (else a guess: person or object)."""
    words = name.text.split()
    last = words[-1].casefold()
    before = body[max(0, name.start - 40) : name.start]
    if canonical(name.text) in places.PLACES:
        return "location", True
    if name.technical:
        return ("organisation" if name.text.isupper() else "tool"), True
    if last in _ORGANISATION:
        return "organisation", True
    if last in _EVENT or name.text.casefold() in _EVENT:
        return "event", True
    if last in _LOCATION:
        return "location", True
    if _PERSON_CUE.search(before):
        return "person", True
    if _WORK_AT.search(before):
        return "organisation", True
    if _MOTION_TO.search(before):
        return "location", True
    cue = _PLACE_CUE.search(before)
    if cue and not cue.group(0).strip().lower().startswith("to"):
        return "location", True
    return ("person" if len(words) <= 3 else "object"), False


def _attributes(
    body: str,
    speaker: str | None,
    subject: str | None,
    mentions: dict[str, Mention],
    add: Adder,
    relations: list[Relation],
) -> None:
    """WORKS_AT, LIVES_IN, USES of the subject, from `statements.attributes`."""
    found = statements.attributes(body if speaker is None else f"{speaker}: {body}")
    homes = {value for attribute, value in found if attribute == "home"}
    if subject is None:
        subject = USER if statements.words(body)[:1] in (["i"], ["i'm"], ["my"]) else None
    if subject is None or not found:
        return
    owner = next((m.name for k, m in mentions.items() if k == subject), None)
    owner = owner or (USER if subject == USER else None)
    if owner is None:
        return
    ended = _ENDED.search(body) is not None
    for attribute, value in sorted(found):
        if attribute not in _ATTRIBUTE_TYPES or (attribute == "tool" and value in homes):
            continue  # a copula's attribute ("the manager is ...") is no relationship
        target = _named(value, mentions)
        if target is None:
            continue
        kind = _ATTRIBUTE_KINDS[_ATTRIBUTE_TYPES[attribute]]
        add(Mention(owner, "person", "subject"))
        add(replace(target, kind=kind, role="object", weak=False, cued=True))
        relations.append(Relation(owner, _ATTRIBUTE_TYPES[attribute], target.name, ended))


def _named(value: str, mentions: dict[str, Mention]) -> Mention | None:
    """The mention an attribute's value names (the value runs on: "google now")."""
    for key, mention in mentions.items():
        if not mention.alias_only and (value == key or value.startswith(f"{key} ")):
            return mention
    return None
