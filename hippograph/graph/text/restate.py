"""Whether a new statement restates a forgotten one, without keeping the forgotten text.

A forgotten fact comes back in other clothes: "My birthday is on 14 March" is forgotten, then
"The user: My birthday is on 14 March, by the way." is extracted from a later turn. Its
embedding is far from the forgotten one's (about 0.77 with all-MiniLM-L6-v2) because the
subject is written differently ("my", "the user's", a speaker label) and the filler differs.
So both sides are compared in a neutral form (``neutral``: the person referred to one way, the
filler and the speaker label gone), where the same statement scores about 1.0 and a changed
value of the same attribute stays below the threshold ("lives in Lisbon" / "in Porto" 0.88
raw, "birthday 14 March" / "2 June" 0.79 neutral).

Numbers decide what the embedding cannot: a phone number forgotten and a new one differ by
digits only (0.98 neutral), so when the forgotten statement held numbers, the new one restates
it only if it holds all of them; and then a looser paraphrase ("I was born on March 14", 0.84)
counts too. A statement about someone else ("my sister's birthday is on 14 March") is not a
restatement: a relation named by the new statement and not by the forgotten one makes it
another subject.

The tombstone keeps the neutral form's embedding and salted hashes of the numbers and of the
relations named, never the text (erasure: nothing of it can be read back but by guessing).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

# Neutral forms at least this close restate each other (the raw-form threshold of
# write/neighbours.py, now on forms that differ only by what was said).
SAME_MIN = 0.88
# With every number of the forgotten statement present, this close is enough.
SAME_WITH_NUMBERS_MIN = 0.8

_SPEAKER = re.compile(r"^[A-Za-z][\w .'’-]{0,40}:\s+")
_FILLER = re.compile(
    r"\b(?:by\s+the\s+way|actually|just\s+so\s+you\s+know|fyi|btw|(?:quick\s+)?update"
    r"|as\s+I\s+said|again|remember|reminder|in\s+case\s+you\s+forgot|oh|so|well)\b[,:!]?\s*",
    re.IGNORECASE,
)
_POSSESSIVE = re.compile(r"\b(?:the\s+user['’]s|my|mine)\b", re.IGNORECASE)
_BEING = re.compile(r"\b(?:the\s+user\s+is|I['’]m|I\s+am)\b", re.IGNORECASE)
_PERSON = re.compile(r"\b(?:the\s+user|I|me)\b", re.IGNORECASE)
_PUNCTUATION = re.compile(r"\s*[,.!?;]+\s*")
_NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*")
# Who or what a statement may be about besides the speaker ("my sister", "our dog"), as a regex
# alternation: shared with extraction, which binds "my friend Fatima" to the name.
RELATIONS = (
    r"(?:sister|brother|mother|mom|mum|father|dad|parents?|wife|husband|partner|spouse"
    r"|girlfriend|boyfriend|son|daughter|kids?|children|child|baby|aunt|uncle|cousin|niece"
    r"|nephew|grand\w+|friend|boss|manager|colleague|co-?worker|neighbou?r|roommate|flatmate"
    r"|teacher|doctor|dentist|therapist|coach|mentor|supervisor|assistant|lead|client"
    r"|customer|landlord|dog|cat|pet|team|company)"
)
_RELATION = re.compile(rf"\b{RELATIONS}s?\b", re.IGNORECASE)


_ORDINALS = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
]
_CARDINALS = [
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]
_NUMBER_WORDS = {
    **{w: str(i) for i, w in enumerate(_ORDINALS, 1)},
    **{w: str(i) for i, w in enumerate(_CARDINALS, 1)},
    "thirtieth": "30",
    "thirty": "30",
}
_SPELLED = re.compile(
    r"\b(?:(?P<tens>twenty|thirty)[- ](?P<unit>first|second|third|fourth|fifth|sixth|seventh"
    r"|eighth|ninth|one|two|three|four|five|six|seven|eight|nine)|(?P<word>"
    + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True))
    + r"))\b",
    re.IGNORECASE,
)
# 68,000 / 68.000 / 68k / 1.5m: one number, written as digits.
_AMOUNT = re.compile(
    r"(?<![\d.,])(\d{1,3}(?:[,.]\d{3})+|\d+(?:\.\d+)?)(?:\s*(k|m)\b|(?:st|nd|rd|th)\b)?",
    re.IGNORECASE,
)


def _spelled(found: re.Match[str]) -> str:
    if found["word"]:
        return _NUMBER_WORDS[found["word"].lower()]
    tens = 20 if found["tens"].lower() == "twenty" else 30
    return str(tens + int(_NUMBER_WORDS[found["unit"].lower()]))


def _amount(found: re.Match[str]) -> str:
    digits, scale = found[1], (found[2] or "").lower()
    if re.fullmatch(r"\d{1,3}(?:[,.]\d{3})+", digits):
        digits = re.sub(r"[,.]", "", digits)
    if not scale:
        return digits
    value = float(digits) * (1000 if scale == "k" else 1_000_000)
    return str(int(value)) if value.is_integer() else str(value)


def numbers_as_digits(text: str) -> str:
    """``text`` with its numbers written one way: "fourteenth" and "14th" as "14", "68k" and
    "68,000" as "68000"."""
    return _AMOUNT.sub(_amount, _SPELLED.sub(_spelled, text))


def neutral(text: str) -> str:
    """``text`` with its speaker label and filler gone, the person written one way and its
    numbers as digits."""
    text = numbers_as_digits(_SPEAKER.sub("", text.strip(), count=1))
    text = _FILLER.sub("", text)
    text = _POSSESSIVE.sub("their", text)
    text = _PERSON.sub("they", _BEING.sub("they are", text))
    return _PUNCTUATION.sub(" ", text).strip().lower()


def _keys(namespace: str, values: Iterable[str]) -> list[str]:
    salt = f"hippograph-restate:{namespace}:"
    return sorted({hashlib.sha256((salt + v).encode()).hexdigest()[:24] for v in values})


def number_keys(namespace: str, text: str) -> list[str]:
    """Salted hashes of the numbers ``text`` holds ("14th", "fourteenth" and "14" are one
    number; "68k" and "68,000" another)."""
    return _keys(namespace, _NUMBER.findall(numbers_as_digits(text)))


def relation_keys(namespace: str, text: str) -> list[str]:
    """Salted hashes of the relations ``text`` names (sister, boss, dog, ...)."""
    said = _SPEAKER.sub("", text.strip(), count=1)  # "Assistant: ..." names no relation
    return _keys(namespace, (m.lower().rstrip("s") for m in _RELATION.findall(said)))


def restates(
    cosine: float,
    forgotten_numbers: Iterable[str],
    numbers: Iterable[str],
    forgotten_relations: Iterable[str],
    relations: Iterable[str],
) -> bool:
    """Whether a statement restates a forgotten one: ``cosine`` of their neutral forms, the
    number and relation keys of each (see the module)."""
    if set(relations) - set(forgotten_relations):
        return False  # about someone or something else
    held = set(forgotten_numbers)
    if held and not held <= set(numbers):
        return False  # a changed value
    return cosine >= (SAME_WITH_NUMBERS_MIN if held else SAME_MIN)
