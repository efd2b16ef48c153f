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
from collections.abc import Iterator, Sequence

from hippograph.graph.errors import InvalidInput
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
_TOKEN = re.compile(r"[^\W_](?:[\w'’]|[.\-](?=[^\W_]))*(?:\+\+|#(?!\w))?")
_BOUNDARY = re.compile(r"[.!?:;\"“”()\[\]\n]")
# Both patterns are written so that each character has one place to go: the looser
# `[A-Z][A-Z0-9&]*[A-Z]...` and `.*[a-z].*[A-Z].*` backtrack quadratically on one long word
# (a 16 KiB unbroken string took seconds to tag).
_ACRONYM = re.compile(r"[A-Z][0-9&]*[A-Z][A-Z0-9&]*s?")
_MIXED_CASE = re.compile(r"[^a-z\n]*[a-z][^A-Z\n]*[A-Z].*")
_ALNUM = re.compile(r"[A-Za-z]+[-.]?[0-9][\w.\-]*")
_SYMBOLIC = re.compile(r"[A-Za-z]\+\+|[A-Za-z]#")
_DOTTED = re.compile(r"[A-Z][A-Za-z0-9]*\.[A-Za-z]{2,}")
_PARTS = re.compile(r"[\s.\-]+")
_TITLES = frozenset({"mr", "mrs", "ms", "dr", "prof", "st", "mt"})
_NAME_PREFIXES = frozenset({"new", "great", "big", "little", "good", "old", "first", "last"})
_CONNECTORS = frozenset({"of", "de", "da", "del", "der", "van", "von", "la", "le", "du"})


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


def _strip_possessive(word: str) -> str:
    return word[:-2] if word.endswith("'s") else word


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
    """Named things, most mentioned first, ties in order of appearance."""
    shouting = _is_shouting(text)
    counts: Counter[str] = Counter()
    for entity in _entity_runs(text, shouting):
        counts[entity] += 1
    return [entity for entity, _ in counts.most_common()]


def _is_shouting(text: str) -> bool:
    letters = list(filter(str.isalpha, text))
    return len(letters) >= 8 and sum(map(str.isupper, letters)) > 0.6 * len(letters)


def _entity_runs(text: str, shouting: bool) -> Iterator[str]:
    run: list[str] = []
    run_at_start = False
    previous_end = 0
    previous_word = ""
    for match in _TOKEN.finditer(text):
        word = _strip_possessive(match.group().replace("’", "'"))
        gap = text[previous_end : match.start()]
        first, before = previous_end == 0, previous_word
        previous_end, previous_word = match.end(), word
        if not shouting and _is_technical(word):
            yield word
        if _is_title_case(word):
            # Only a capitalised word asks whether it opens a sentence.
            at_start = first or (
                _BOUNDARY.search(gap) is not None and before.lower() not in _TITLES
            )
            if run and (gap != " " or at_start):
                yield from _accepted(run, run_at_start)
                run = []
            if not run:
                run_at_start = at_start
            run.append(word)
        elif run and gap == " " and word in _CONNECTORS:
            run.append(word)
        elif run:
            yield from _accepted(run, run_at_start)
            run = []
    if run:
        yield from _accepted(run, run_at_start)


def _accepted(run: list[str], at_start: bool) -> Iterator[str]:
    start, end = 0, len(run)
    while start < end and _weak(run[start], run[start + 1 : end]):
        start, at_start = start + 1, False
    while end > start and (run[end - 1] in _CONNECTORS or run[end - 1].lower() in STOPWORDS):
        end -= 1
    # A lone capitalised word opening a sentence is usually just an ordinary word.
    if end - start > 1 or (end - start == 1 and not at_start):
        yield " ".join(run[start:end])


def _weak(word: str, rest: list[str]) -> bool:
    """Whether a run's first word is not part of the name ("The" Beatles, but "New" York)."""
    lower = word.lower()
    if lower in _TITLES:
        return True
    return lower in STOPWORDS and not (lower in _NAME_PREFIXES and rest)


def _is_title_case(word: str) -> bool:
    return word[0].isupper() and word[1:].islower() and word.isalpha()


# Words repeat across a batch (names, common words): each is judged once, like the tag names.
@functools.lru_cache(maxsize=65536)
def _is_technical(word: str) -> bool:
    # Each pattern below needs an upper-case letter, a "+" or a "#": most words have none.
    if word.lower() in STOPWORDS or (word.islower() and "+" not in word and "#" not in word):
        return False
    return bool(
        _ACRONYM.fullmatch(word)
        or _SYMBOLIC.fullmatch(word)
        or _MIXED_CASE.fullmatch(word)
        or _DOTTED.fullmatch(word)
        or (_ALNUM.fullmatch(word) and any(c.isupper() for c in word))
    )
