"""Long texts cut into memory-sized pieces: nothing lost, boundaries preferred, linear."""

from __future__ import annotations

import pytest

from hippograph.graph.write.chunks import CHUNK_CHARS, split, turn_pieces


def test_pieces_join_back_to_the_text_and_respect_the_size() -> None:
    paragraph = "The deploy plan has three stages. Stage one builds the image! Then we test it?\n"
    text = (paragraph * 40 + "\n") * 5 + "tail without an ending"
    pieces = split(text, 700)
    assert "".join(p.text for p in pieces) == text
    assert all(len(p.text) <= 700 for p in pieces)
    assert [p.position for p in pieces] == list(range(len(pieces)))
    assert all(text[p.start : p.end] == p.text for p in pieces)
    assert all(b.start == a.end for a, b in zip(pieces, pieces[1:], strict=False))
    # Cut at line ends (the strongest boundary in reach), never mid-sentence here.
    assert all(p.text.endswith("\n") for p in pieces[:-1])


def test_sentences_then_spaces_then_hard_cuts() -> None:
    prose = "One short sentence here. " * 50
    assert all(p.text.endswith(". ") for p in split(prose, 120)[:-1])
    words = "word " * 100
    assert all(p.text.endswith(" ") for p in split(words, 33)[:-1])
    unbroken = "z" * 10_000
    pieces = split(unbroken, 3000)
    assert [len(p.text) for p in pieces] == [3000, 3000, 3000, 1000]


def test_short_text_is_one_piece_and_bad_sizes_are_refused() -> None:
    assert [p.text for p in split("hello", 10)] == ["hello"]
    assert split("", 10) == []
    with pytest.raises(ValueError):
        split("hello", 0)


def test_a_very_long_turn_is_cut_in_one_pass() -> None:
    line = "A line of a pasted log file with some numbers 12345 and words.\n"
    text = line * 5500  # 346,500 characters
    pieces = split(text, 4000)
    per_piece = 4000 // len(line)  # whole lines: the cut is at the last line end in reach
    assert all(p.text == line * per_piece for p in pieces[:-1])
    assert len(pieces) == -(-5500 // per_piece)
    assert "".join(p.text for p in pieces) == text


def test_a_long_turn_makes_pieces_that_keep_the_speaker_and_their_place() -> None:
    text = "\n\n".join(
        f"Paragraph {i} of the pasted file. It says something about {i}." for i in range(800)
    )
    pieces = turn_pieces(text, "Sam", 32 * 1024)
    assert len(pieces) > 5
    for i, (content, at) in enumerate(pieces):
        assert (at.index, at.count) == (i, len(pieces))
        assert content == "Sam: " + text[at.start : at.end].strip()
        assert at.end - at.start <= CHUNK_CHARS
    assert pieces[0][1].start == 0 and pieces[-1][1].end == len(text)


def test_pieces_fit_a_small_memory_limit_whatever_the_characters() -> None:
    pieces = turn_pieces("ж" * 5000, "Ana", 400)  # two bytes a character
    assert all(len(content.encode()) <= 400 for content, _ in pieces)
