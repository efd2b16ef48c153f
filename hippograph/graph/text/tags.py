"""Tag names in their canonical form: one tag however it is cased, spaced or punctuated."""

from __future__ import annotations

import re
import string
import unicodedata

from hippograph.graph.errors import InvalidInput

MAX_TAG_LENGTH = 64

_SEPARATORS = re.compile(r"[\s_\-]+")
_LEAD_STRIP = string.punctuation + string.whitespace
_TRAIL_STRIP = _LEAD_STRIP.replace("+", "").replace("#", "")  # keep c++, c#


def normalize_tag(name: str) -> str:
    """The canonical form of a tag name: "Python", " python", "PYTHON" are all "python".

    Lowercases, collapses runs of whitespace, underscores and hyphens to one "-", and strips
    punctuation at the ends (a trailing "+" or "#" survives, for "c++" and "c#").
    Raises InvalidInput when the result is empty or longer than 64 characters.
    """
    tag = _SEPARATORS.sub("-", unicodedata.normalize("NFKC", name).lower())
    tag = tag.lstrip(_LEAD_STRIP).rstrip(_TRAIL_STRIP)
    if not tag:
        raise InvalidInput("tag", f"{name!r} is empty once normalised")
    if len(tag) > MAX_TAG_LENGTH:
        raise InvalidInput("tag", f"longer than {MAX_TAG_LENGTH} characters", limit=64)
    return tag
