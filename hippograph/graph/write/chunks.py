"""Cutting a long text into pieces that each make a memory.

A turn can be far longer than a memory should be (an assistant pasting a file or a long plan).
``split`` cuts it into consecutive pieces of at most ``max_chars``, preferring the strongest
boundary near the end of each piece: a blank line, then a line break, then the end of a
sentence, then a space; only text with none of them is cut mid-word. Pieces keep their order
and their offsets in the original text, so a reader can go back to the exact place, and joining
them gives the original text again. It runs in time linear in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
