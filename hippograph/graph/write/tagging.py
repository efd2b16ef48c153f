"""Offline, deterministic tag inference at write time: no model, only rules.

Tags are normalised names (`text.tags.normalize_tag`). The conventions:

- ``speaker:<name>`` for who said it, plus ``<name>`` itself, so a tag query for a person
  finds what they said as well as what was said about them;
- ``path:<path>`` per touched file (trailing components kept when the path is too long)
  and the file's language (``python`` for ``.py``);
- ``#hashtags`` become the bare tag (``#Hiking`` -> ``hiking``);
- named entities: capitalised runs not at a sentence start (``New York``), acronyms
  (``LGBTQ``) and technical casing (``PostgreSQL``, ``Neo4j``, ``GPT-4``, ``C++``);
- keywords: the most frequent content words left after a stopword list.

:func:`infer_tags` emits them in that order of trust, then cuts at ``max_tags``.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence

from hippograph.graph.errors import InvalidInput
from hippograph.graph.text import names
from hippograph.graph.text.names import is_technical as _is_technical  # noqa: F401 - tested here
from hippograph.graph.text.names import strip_possessive as _strip_possessive
from hippograph.graph.text.stopwords import STOPWORDS
from hippograph.graph.text.tags import MAX_TAG_LENGTH, normalize_tag

_LANGUAGES: dict[str, str] = {
    "py": "python", "pyi": "python", "ipynb": "python", "js": "javascript",
    "mjs": "javascript", "cjs": "javascript", "jsx": "javascript", "ts": "typescript",
    "tsx": "typescript", "rs": "rust", "go": "go", "java": "java", "kt": "kotlin",
    "kts": "kotlin", "scala": "scala", "rb": "ruby", "php": "php", "cs": "csharp",
    "c": "c", "h": "c", "cc": "cpp", "cpp": "cpp", "cxx": "cpp", "hpp": "cpp",
    "swift": "swift", "m": "objective-c", "r": "r", "jl": "julia", "lua": "lua",
    "sh": "shell", "bash": "shell", "zsh": "shell", "ps1": "powershell", "sql": "sql",
    "cypher": "cypher", "html": "html", "css": "css", "scss": "css", "vue": "vue",
    "svelte": "svelte", "md": "markdown", "rst": "restructuredtext", "yml": "yaml",
    "yaml": "yaml", "json": "json", "toml": "toml", "xml": "xml", "tf": "terraform",
    "dart": "dart", "ex": "elixir", "exs": "elixir", "erl": "erlang", "hs": "haskell",
    "clj": "clojure", "ml": "ocaml", "zig": "zig", "proto": "protobuf",
}  # fmt: skip
_FILENAMES: dict[str, str] = {"dockerfile": "docker", "makefile": "make", "cmakelists.txt": "cmake"}

_HASHTAG = re.compile(r"(?<![\w#&])#([^\W\d_][\w-]*)")
_TERM = re.compile(r"[^\W_]+(?:['’][^\W_]+)?(?:\+\+|#(?!\w))?")
_PARTS = re.compile(r"[\s.\-]+")


def terms(text: str) -> list[str]:
    """Content terms in order, repeats kept (for BM25-style scoring): lowercased, at least
    two characters, stopwords and possessive "'s" removed."""
    found: list[str] = []
    for raw in _TERM.findall(text.lower()):
        term = _strip_possessive(raw.replace("’", "'"))
        if len(term) >= 2 and term not in STOPWORDS:
            found.append(term)
    return found


def keywords(text: str) -> list[str]:
    """Distinct content words of three or more characters (not bare numbers), most
    frequent first, ties in order of first appearance."""
    counts = Counter(t for t in terms(text) if len(t) >= 3 and not t.isdigit())
    return [term for term, _ in counts.most_common()]


def infer_tags(
    text: str,
    *,
    speaker: str | None = None,
    file_paths: Sequence[str] = (),
    max_tags: int = 8,
) -> list[str]:
    """Tags for a memory, most trustworthy first, at most ``max_tags``.

    text: the memory's content.
    speaker: who said it; adds ``speaker:<name>`` and ``<name>``.
    file_paths: files the memory concerns; each adds ``path:<path>`` and its language.
    max_tags: cap on the number of tags returned.
    """
    found = _entities(text)
    in_entities = {part for entity in found for part in _PARTS.split(entity.lower())}
    candidates = [
        *_speaker_tags(speaker),
        *_HASHTAG.findall(text),
        *_file_tags(file_paths),
        *found,
        *(k for k in keywords(text) if k not in in_entities),
    ]
    return _first_valid(candidates, max_tags)


def _first_valid(candidates: Sequence[str], limit: int) -> list[str]:
    tags: list[str] = []
    for candidate in candidates:
        if len(tags) >= limit:
            break
        tag = _normalized_or_none(candidate)
        if tag is not None and tag not in tags:
            tags.append(tag)
    return tags


# Inferred candidates repeat across a batch (names, keywords): normalising each once.
@functools.lru_cache(maxsize=8192)
def _normalized_or_none(name: str) -> str | None:
    try:
        return normalize_tag(name)
    except InvalidInput:
        return None


def _speaker_tags(speaker: str | None) -> list[str]:
    if speaker is None or _normalized_or_none(speaker) is None:
        return []
    return [f"speaker:{speaker}", speaker]


def _file_tags(paths: Sequence[str]) -> list[str]:
    languages = [lang for lang in map(_language, paths) if lang]
    return [*languages, *(_path_tag(p) for p in paths)]


def _language(path: str) -> str | None:
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if name in _FILENAMES:
        return _FILENAMES[name]
    stem, dot, extension = name.rpartition(".")
    return _LANGUAGES.get(extension) if dot and stem else None


def _path_tag(path: str) -> str:
    """``path:<path>``; when too long, the longest tail of whole components that fits."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    while len(parts) > 1 and len("path:" + "/".join(parts)) > MAX_TAG_LENGTH:
        parts = parts[1:]
    return "path:" + "/".join(parts)


def _entities(text: str) -> list[str]:
    """Named things, most mentioned first, ties in order of appearance; a lone capitalised
    word opening a sentence is usually just an ordinary word, and is left out."""
    counts: Counter[str] = Counter(n.text for n in names.found(text) if not n.opening)
    return [entity for entity, _ in counts.most_common()]
