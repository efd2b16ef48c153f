"""The stemmer's forms of a word: what a full-text query for one form also searches."""

from __future__ import annotations

from hippograph.graph.write.statements import root, variants


def test_the_forms_of_a_word_are_those_the_stemmer_takes_back_to_its_root() -> None:
    assert variants("camped")[0] == "camped"  # the word itself first
    assert {"camp", "camps", "camping"} <= set(variants("camped"))
    assert {"like", "likes", "liked", "liking"} <= set(variants("liking"))
    assert {"researched", "researching"} <= set(variants("research"))
    assert "campaign" not in variants("camp")
    for word in ("camped", "liking", "research", "dance", "kids"):
        assert {root(v) for v in variants(word)} == {root(word)}, word
    assert len(variants("dance")) == len(set(variants("dance")))  # no form twice
