"""The other regular forms of a query word (text/forms.py): what a full-text query for a word
the namespace rarely holds also searches."""

from __future__ import annotations

import pytest

from hippograph.graph.model import NewMemory
from hippograph.graph.recall.recipes import DEFAULT_CASCADE
from hippograph.graph.runtime import Runtime
from hippograph.graph.text.forms import forms
from tests.graph.recall.test_retrieval import remember
from tests.graph.recall.test_termstats import fulltext_hits


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("camped", {"camp", "camps", "camping"}),
        ("liking", {"like", "likes", "liked"}),
        ("research", {"researched", "researching", "researches"}),
        # a base ending in d: the stemmer of the write path took "recommend" to "recommen"
        ("recommended", {"recommend", "recommends", "recommending"}),
        ("reccomended", {"reccomend", "reccomends"}),  # a misspelling keeps its own forms
        ("cities", {"city"}),
        ("tried", {"try", "tries", "trying"}),
        ("studies", {"study", "studied", "studying"}),
        ("planned", {"plan", "plans", "planning"}),
        ("running", {"run", "runs"}),
        ("hiking", {"hike", "hikes", "hiked"}),
        ("dance", {"dances", "danced", "dancing"}),
        ("watches", {"watch", "watched", "watching"}),
        ("kids", {"kid"}),
        ("agree", {"agrees", "agreed", "agreeing"}),
    ],
)
def test_the_regular_forms_of_a_word(word: str, expected: set[str]) -> None:
    found = forms(word)
    assert expected <= set(found), set(found)
    assert word not in found
    assert list(found) == sorted(set(found))  # each once, in a stable order


@pytest.mark.parametrize("word", ["camp", "bus", "news", "class"])
def test_no_form_is_another_word_by_a_shared_beginning(word: str) -> None:
    found = set(forms(word))
    assert not {"campaign", "business", "newspaper", "classic"} & found
    assert all(len(f) >= 3 for f in found)


def test_a_rare_word_finds_its_base_form_on_the_real_engine(
    runtime: Runtime, namespace: str
) -> None:
    """ "recommended" asked, "recommend" said: the full-text side finds it (the write path's
    stemmer, which these forms came from before, took "recommend" to "recommen" and never
    searched it)."""
    texts = [
        "Nate: I really recommend the fantasy trilogy, the world building is great.",
        "Joanna: My laptop crashed last week and I lost my script.",
        "Nate: The turtles love their new tank.",
        "Joanna: The cities I visited this spring were all by the sea.",
    ]
    written = remember(runtime, namespace, *[NewMemory(content=t) for t in texts])
    ids = dict(zip(texts, written, strict=True))
    for question, said in (
        ("What has Nate recommended?", texts[0]),
        ("Which city did Joanna visit?", texts[3]),
    ):
        hits, _, _ = fulltext_hits(runtime, namespace, question, DEFAULT_CASCADE)
        assert ids[said] in hits, question
        assert next(iter(hits)) == ids[said]
