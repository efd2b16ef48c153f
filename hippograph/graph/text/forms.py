"""The other regular English forms of a query word, for the full-text side (`seeds`): a word the
namespace rarely holds in the asked form is searched in its other forms too ("recommended":
recommend, recommends, recommending; "cities": city; "planned": plan, plans, planning).

Regular inflection only, by rules: the plural and third person (-s, -es, consonant + y ->
-ies), the past (-ed, -d, -ied, a doubled final consonant: plan -> planned) and the
present participle (-ing, a final e dropped: hike -> hiking; doubled: run -> running). A form
the rules make up that no memory holds costs nothing where the namespace's counts are known:
the caller searches only forms it holds. Irregular forms (went, ran, children) are left to the
embedding and the vocabulary seeds.
"""

from __future__ import annotations

import functools

_VOWELS = frozenset("aeiou")
# Endings after which the plural and third person take -es (box -> boxes, watch -> watches).
_SIBILANT = ("s", "x", "z", "ch", "sh")
# The shortest base a rule may leave: "sing" is not "s" + -ing.
_MIN_BASE = 3


def _consonant(c: str) -> bool:
    return c.isalpha() and c not in _VOWELS


def _bases(word: str) -> set[str]:
    """What ``word`` may be an inflection of, itself included (it may be a base ending in
    -s, -ed or -ing: "bus", "need", "sing")."""
    found = {word}

    def add(base: str) -> None:
        if len(base) >= _MIN_BASE:
            found.add(base)

    if word.endswith("ies") and len(word) > 4:
        add(word[:-3] + "y")
    elif word.endswith("es"):
        add(word[:-2])
        add(word[:-1])
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        add(word[:-1])
    for ending in ("ied", "ed", "ing"):
        if not word.endswith(ending):
            continue
        stem = word[: -len(ending)]
        if ending == "ied":
            add(stem + "y")
            break
        add(stem)
        add(stem + "e")
        if len(stem) >= 2 and stem[-1] == stem[-2] and _consonant(stem[-1]):
            add(stem[:-1])  # planned -> plan, running -> run
        break
    return found


def _inflections(base: str) -> set[str]:
    """The regular forms of ``base``."""
    forms = {base}
    if base.endswith("y") and len(base) > 1 and _consonant(base[-2]):
        forms |= {base[:-1] + "ies", base[:-1] + "ied", base + "ing"}
        return forms
    forms.add(base + "es" if base.endswith(_SIBILANT) else base + "s")
    if base.endswith("e"):
        # hike -> hiked, hiking; agree -> agreed, agreeing
        forms |= {base + "d", (base if base.endswith("ee") else base[:-1]) + "ing"}
        return forms
    forms |= {base + "ed", base + "ing"}
    # A short word ending consonant-vowel-consonant doubles it (plan -> planned, run ->
    # running); both spellings are kept (visit -> visited, not visitted, where a rule cannot
    # tell the stress).
    if (
        len(base) >= 3
        and _consonant(base[-1])
        and base[-1] not in "wxy"
        and base[-2] in _VOWELS
        and _consonant(base[-3])
    ):
        forms |= {base + base[-1] + "ed", base + base[-1] + "ing"}
    return forms


@functools.lru_cache(maxsize=16384)
def forms(word: str) -> tuple[str, ...]:
    """The other regular forms of ``word`` (lower case), ``word`` itself left out, sorted."""
    found: set[str] = set()
    for base in _bases(word):
        found |= _inflections(base)
    found.discard(word)
    return tuple(sorted(f for f in found if len(f) >= _MIN_BASE))
