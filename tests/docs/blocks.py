"""The fenced blocks of README.md and docs/*.md, for the tests that check or run them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The pages a user reads (docs/research/ holds measurement notes, with no examples to paste).
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A fence, indented or not (a block inside a list item), with its language.
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")


@dataclass(frozen=True)
class Block:
    """One fenced block: the page it is on (relative to the checkout), its first line's number
    and language, and its text with the fence's indentation taken off."""

    page: str
    line: int
    lang: str
    code: str

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """Every fenced block of ``path``, in order."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    page = path.relative_to(ROOT).as_posix()
    start: tuple[int, str, str] | None = None
    body: list[str] = []
    for number, line in enumerate(lines, 1):
        fence = FENCE.match(line)
        if fence is None:
            if start is not None:
                body.append(line.removeprefix(start[1]))
            continue
        if start is None:
            start, body = (number, fence.group(1), fence.group(2)), []
        else:
            found.append(Block(page, start[0], start[2], "\n".join(body) + "\n"))
            start = None
    assert start is None, f"{page}:{start[0]}: a fence is not closed"
    return found


ALL = [block for page in PAGES for block in blocks(page)]


def of(lang: str) -> list[Block]:
    return [b for b in ALL if b.lang == lang]
