"""What the full-text index holds for a memory and what a query asks (text/fulltext.py): its
distinct content words, each keyed by its namespace. On the engine: write/test_fulltext.py."""

from __future__ import annotations

from hippograph.graph.text import fulltext


def test_words_keys_and_queries() -> None:
    assert fulltext.words("The Quokka's quokka, 3.14 and a-b " + "z" * 65) == ["quokka", "14"]
    key = fulltext.namespace_key("team/a")
    assert key.isalnum() and key.startswith("x") and len(key) == 9
    assert key == fulltext.namespace_key("team/a") != fulltext.namespace_key("team/b")
    assert fulltext.indexed("team/a", "Quokka quokka kea") == f"{key}quokka {key}kea"
    assert fulltext.query("team/a", ["quokka", "kea"]) == f"{key}quokka OR {key}kea"
