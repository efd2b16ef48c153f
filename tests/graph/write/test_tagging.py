from __future__ import annotations

import time

import pytest

from hippograph.graph.text.stopwords import STOPWORDS
from hippograph.graph.write.tagging import infer_tags, keywords, terms


def test_named_entities_become_tags() -> None:
    tags = infer_tags(
        "Caroline went to an LGBTQ support group in New York with Melanie.", max_tags=20
    )

    assert {"lgbtq", "new-york", "melanie"} <= set(tags)
    assert tags.index("new-york") < tags.index("support")  # entities rank above keywords
    assert "new" not in tags
    assert "york" not in tags


def test_tech_names_are_recognised_by_their_casing() -> None:
    tags = infer_tags("We moved from PostgreSQL to Neo4j, then rewrote it in C++ using GPT-4.")

    assert {"postgresql", "neo4j", "c++", "gpt-4"} <= set(tags)


def test_a_capitalised_word_opening_a_sentence_is_not_an_entity() -> None:
    tags = infer_tags("Yesterday was fun. Sure, the hike was long. Honestly I loved it.")

    assert tags == ["fun", "hike", "loved"]


def test_names_after_titles_and_in_the_middle_of_sentences_are_entities() -> None:
    tags = infer_tags("I saw Dr. Smith near Lake Tahoe with The Beatles.", max_tags=3)

    assert tags == ["smith", "lake-tahoe", "beatles"]


def test_file_paths_give_a_path_tag_and_a_language_tag() -> None:
    tags = infer_tags(
        "fixed the flaky test", file_paths=["src/app.py", "web\\ui\\Main.tsx", "./Dockerfile"]
    )

    assert tags[:6] == [
        "python",
        "typescript",
        "docker",
        "path:src/app.py",
        "path:web/ui/main.tsx",
        "path:dockerfile",
    ]


def test_an_overlong_path_keeps_its_trailing_components() -> None:
    deep = "/home/someone/projects/" + "nested/" * 10 + "hippograph/graph/write/tagging.py"

    (path_tag,) = [t for t in infer_tags("edit", file_paths=[deep]) if t.startswith("path:")]

    assert len(path_tag) <= 64
    assert path_tag.endswith("/hippograph/graph/write/tagging.py")


def test_speaker_gives_speaker_tag_and_name_tag_first() -> None:
    tags = infer_tags("I adopted a puppy named Rex.", speaker="Caroline Smith")

    assert tags[:2] == ["speaker:caroline-smith", "caroline-smith"]
    assert "rex" in tags and "puppy" in tags


def test_hashtags_become_bare_tags() -> None:
    tags = infer_tags("Great day out #Hiking with the #camp_life crew, C# later")

    assert tags[:2] == ["hiking", "camp-life"]
    assert "c#" in tags


def test_no_stopword_becomes_a_tag() -> None:
    assert infer_tags("Oh well, I think that it was really good and we got there.") == []
    tags = infer_tags("The cat and the dog were sleeping on the sofa near the window.")
    assert tags == ["cat", "dog", "sleeping", "sofa", "window"]
    assert not set(tags) & STOPWORDS


def test_max_tags_caps_the_result_and_tags_are_unique() -> None:
    text = "Alpha Beta went with Gamma, Delta and Epsilon to see Zeta, Eta and Theta in Iota."

    tags = infer_tags(text, speaker="Kappa", max_tags=5)

    assert len(tags) == 5
    assert len(set(tags)) == 5
    assert infer_tags(text, max_tags=0) == []


def test_inference_is_deterministic() -> None:
    text = "Melanie painted a sunset at Lake Tahoe; Caroline joined the LGBTQ parade #pride."
    runs = {tuple(infer_tags(text, speaker="Melanie", file_paths=["a/b.rs"])) for _ in range(5)}

    assert len(runs) == 1


def test_keywords_rank_by_frequency_then_first_appearance() -> None:
    text = "Graph database index. The graph index uses a graph database's B-tree."

    assert keywords(text) == ["graph", "database", "index", "tree"]


def test_terms_keep_repeats_for_bm25() -> None:
    assert terms("Caroline's dog, the dog; Neo4j & AI!") == [
        "caroline",
        "dog",
        "dog",
        "neo4j",
        "ai",
    ]


_UNBROKEN = {
    "lower": "z" * 32768,
    "upper_then_lower": "Z" * 32767 + "q",
    "alternating": "aB" * 16384,
    "spaced_title": "Ab " * 10922,
}


@pytest.mark.parametrize("shape", sorted(_UNBROKEN))
def test_unbroken_32k_input_is_tagged_without_backtracking(shape: str) -> None:
    # One 32 KiB word used to take seconds (quadratic backtracking in the acronym and
    # mixed-case patterns); linear now, ~0.02 s (bench/pathological.py prints the growth).
    # The bound is generous on purpose: it only catches a return of the quadratic case.

    start = time.perf_counter()
    tags = infer_tags(_UNBROKEN[shape])
    assert time.perf_counter() - start < 5.0
    assert all(len(tag) <= 64 for tag in tags)


@pytest.mark.parametrize(
    ("word", "technical"),
    [("NASA", True), ("R2D2", True), ("A&B", True), ("AB&C", True), ("APIs", True),
     ("iPhone", True), ("GraphQL", True), ("Python", False), ("python", False), ("A1", True)],
)  # fmt: skip
def test_technical_words_after_the_linear_rewrite(word: str, technical: bool) -> None:
    from hippograph.graph.write.tagging import _is_technical

    assert _is_technical(word) is technical
