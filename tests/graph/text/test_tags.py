"""Tag names in their canonical form (text/tags.py)."""

from __future__ import annotations

import pytest

from hippograph.graph.errors import InvalidInput
from hippograph.graph.text.tags import normalize_tag


@pytest.mark.parametrize(
    "name", ["Python", "python ", "PYTHON", "  PyThOn\t", "#python", "python!"]
)
def test_spellings_of_one_tag_normalize_alike(name: str) -> None:
    assert normalize_tag(name) == "python"


@pytest.mark.parametrize("name", ["New York", "new_york", "new-york", "New   York", "new -- york"])
def test_separators_collapse_to_one_hyphen(name: str) -> None:
    assert normalize_tag(name) == "new-york"


def test_trailing_plus_and_hash_survive_for_language_names() -> None:
    assert [normalize_tag(n) for n in ["C++", "C#.", "(F#)"]] == ["c++", "c#", "f#"]


@pytest.mark.parametrize("name", ["", "   ", "!!!", "- _ -", "x" * 65])
def test_empty_or_overlong_tags_are_rejected(name: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        normalize_tag(name)
    assert caught.value.field == "tag"


def test_a_tag_of_exactly_64_characters_is_kept() -> None:
    assert normalize_tag("x" * 64) == "x" * 64
