"""Cutting a long text into pieces that each make a memory.

A turn can be far longer than a memory should be (an assistant pasting a file or a long plan).
``split`` cuts it into consecutive pieces of at most ``max_chars``, preferring the strongest
boundary near the end of each piece: a blank line, then a line break, then the end of a
sentence, then a space; only text with none of them is cut mid-word. Pieces keep their order
and their offsets in the original text, so a reader can go back to the exact place, and joining
them gives the original text again. It runs in time linear in the text.

``turn_pieces`` is what the write path makes of a conversation turn too long for one memory
(``ingest`` up to ``HIPPOGRAPH_MAX_TURN_BYTES``): pieces of at most ``CHUNK_CHARS`` characters,
each read as the speaker's words, with its position in the turn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hippograph.graph.model import ChunkPosition

# Boundaries, strongest first; a piece ends just after the boundary it is cut at.
_BOUNDARIES = (
    re.compile(r"\n[ \t]*\n"),
    re.compile(r"\n"),
    re.compile(r"[.!?][\"')\]]*\s"),
    re.compile(r"\s"),
)
# A boundary counts only in the last part of a window: a piece is at least this share of
# max_chars, so a blank line early in the window does not leave a tiny piece.
MIN_FILL = 0.5
# A piece of a long turn: a few paragraphs, long enough to hold a step of a plan or a section
# of a file with its context, short enough that its words weigh in its full-text score.
CHUNK_CHARS = 4000
# UTF-8 takes at most this many bytes a character: pieces of (limit / 4) characters always fit.
_MAX_CHAR_BYTES = 4


@dataclass(frozen=True, kw_only=True)
class Chunk:
    position: int  # 0, 1, 2, ... in text order
    start: int  # offset of the piece in the original text
    end: int
    text: str


def split(text: str, max_chars: int) -> list[Chunk]:
    """``text`` in pieces of at most ``max_chars`` characters (one piece if it fits)."""
    if max_chars < 1:
        raise ValueError("max_chars must be at least 1")
    chunks: list[Chunk] = []
    start = 0
    while start < len(text):
        end = min(start + max_chars, len(text))
        if end < len(text):
            end = _cut(text, start, end, max_chars)
        chunks.append(Chunk(position=len(chunks), start=start, end=end, text=text[start:end]))
        start = end
    return chunks


def _cut(text: str, start: int, end: int, max_chars: int) -> int:
    """Where to end the piece that starts at ``start`` (at most ``end``)."""
    floor = start + max(1, int(max_chars * MIN_FILL))
    for boundary in _BOUNDARIES:
        last = None
        for match in boundary.finditer(text, floor, end):
            last = match
        if last is not None:
            return last.end()
    return end


def turn_pieces(text: str, speaker: str, max_bytes: int) -> list[tuple[str, ChunkPosition]]:
    """A turn's ``text`` as the contents of memories of at most ``max_bytes`` each: pieces of
    at most ``CHUNK_CHARS`` characters, each ``"speaker: piece"`` (so it reads as that
    speaker's words), with its place in ``text``. Blank pieces are left out."""
    prefix = f"{speaker}: " if speaker else ""
    room = (max_bytes - len(prefix.encode("utf-8"))) // _MAX_CHAR_BYTES
    kept = [c for c in split(text, max(1, min(CHUNK_CHARS, room))) if c.text.strip()]
    return [
        (prefix + c.text.strip(),
         ChunkPosition(index=i, count=len(kept), start=c.start, end=c.end))
        for i, c in enumerate(kept)
    ]  # fmt: skip
