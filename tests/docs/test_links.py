"""Every relative link of README.md and docs/ resolves: to a file that exists, among the files a
running server serves under /docs/ (so a link works there as in the repository), and to a
heading of that file when it names an anchor."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hippograph.api.landing import docs_files
from tests.docs.blocks import FENCE, ROOT

SERVED = docs_files(ROOT)
# [text](target), outside code; targets with a scheme (https:, mailto:) are not relative.
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def prose(path: Path) -> str:
    """The file without its fenced blocks and inline code, where brackets are code."""
    kept, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            kept.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(kept)


def anchors(path: Path) -> set[str]:
    """GitHub's anchor of each heading: lower case, punctuation but - and _ dropped, spaces -."""
    found = set()
    for line in prose(path).splitlines():
        heading = re.match(r"#{1,6} (.+)", line)
        if heading:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower())
            found.add(slug.replace(" ", "-"))
    return found


@pytest.mark.parametrize("page", SERVED)
def test_relative_links_resolve(page: str) -> None:
    path = ROOT / page
    links = [t for t in LINK.findall(prose(path)) if not re.match(r"[a-z]+:", t)]
    for target in links:
        file, _, anchor = target.partition("#")
        resolved = (path.parent / file).resolve() if file else path
        name = resolved.relative_to(ROOT).as_posix() if resolved.is_relative_to(ROOT) else file
        assert resolved.is_file(), f"{page}: {target} names no file"
        assert name in SERVED, f"{page}: {target} leaves the docs a server serves"
        if anchor:
            assert anchor in anchors(resolved), f"{page}: {target} names no heading of {name}"


def test_the_readme_links_every_page() -> None:
    readme = prose(ROOT / "README.md")
    for page in SERVED:
        if page.startswith("docs/") and "/research/" not in page:
            assert f"({page})" in readme or f"({page}#" in readme, page
