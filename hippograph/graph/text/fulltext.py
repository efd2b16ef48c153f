"""What the full-text index holds for a memory: its words, each keyed by its namespace.

The full-text index is one index over every namespace (a graph engine has no per-tenant index).
Indexed as is, a query for "hiking" handed over every tenant's postings of it: its cost and the
index's candidate order (which hits come first, where a query cuts them) followed the whole
store, so one tenant writing a word could push another's matches past the cut. So a memory is
indexed by ``ft_terms``, a text of its distinct content words each prefixed with its
namespace's key (``x3kq7h2ma`` + ``hiking``): a query asks only for its own namespace's keyed
words, the index hands over only that namespace's postings, and a word's document frequency in
the index is the namespace's own. The namespace is still checked exactly on every hit (two
namespaces sharing a key, one chance in 2^40 a pair, would only share candidates).

Both sides are built by `words` here, so what is indexed and what is asked match by
construction: ASCII letters and digits, lower case, at least two characters, no function words
(`stopwords.FUNCTION_WORDS`: the tagger's longer list also drops days, months and generic
verbs, which a search must find),
at most MAX_WORD characters (Lucene's standard tokenizer cuts longer tokens into pieces the
key would not prefix). ``content`` itself is not indexed; BM25 scores are computed on it over
the namespace's own statistics (`recall.termstats`).

A memory said in a session is also indexed by its context (`write.context`): the words of the memory
written before it in that session that it does not hold itself, keyed the same way. A reply
("How about this series?") is found by what it answers ("any book you'd recommend?"), and the
stored content does not change. Recall scores a context word at a fraction of a content word
(`CascadeConfig.context_weight`): a word a hit is indexed by that its content lacks.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import re

from hippograph.graph.text.stopwords import FUNCTION_WORDS

_WORD = re.compile(r"[A-Za-z0-9]+")
MAX_WORD = 64
# Query words kept from one recall's context: Lucene's clause limit is far above, but a query
# of more words spends its posting budget on words that add little.
MAX_QUERY_WORDS = 32
# Bumped whenever `words` or `namespace_key` change what a memory is indexed by: a store whose
# memories were keyed by another version has them keyed again at start-up (`write.migrate.rekey`).
VERSION = 2


def tokens(text: str) -> list[str]:
    """Every word of ``text`` as the index splits it, lowercased, repeats kept (for term
    frequencies): runs of ASCII letters and digits."""
    if text.isascii():  # lowered whole, the same words (recall counts them in every full-text hit)
        return _WORD.findall(text.lower())
    return [w.lower() for w in _WORD.findall(text)]


def words(text: str) -> list[str]:
    """The distinct content words of ``text``, lowercased, in order of first appearance:
    nothing Lucene query syntax could misread."""
    return [
        w for w in dict.fromkeys(tokens(text)) if 1 < len(w) <= MAX_WORD and w not in FUNCTION_WORDS
    ]


@functools.lru_cache(maxsize=1024)  # asked once per memory written or query word
def namespace_key(namespace: str) -> str:
    """A short letters-and-digits key of ``namespace`` (x + 8 base32 characters)."""
    digest = hashlib.blake2b(namespace.encode("utf-8"), digest_size=5).digest()
    return "x" + base64.b32encode(digest).decode("ascii").lower()


def indexed(namespace: str, content: str, context: str = "") -> str:
    """The ``ft_terms`` of a memory of ``namespace`` saying ``content``, said after ``context``
    (the previous memory of its session, or nothing): the words of the content, then those of
    the context the content does not hold."""
    key = namespace_key(namespace)
    own = words(content)
    held = set(own)
    return " ".join(key + w for w in [*own, *(w for w in words(context) if w not in held)])


def query(namespace: str, terms: list[str]) -> str:
    """A full-text query for any of ``terms`` (from `words`) in ``namespace``."""
    key = namespace_key(namespace)
    return " OR ".join(key + w for w in terms)


def term(namespace: str, word: str) -> str:
    """One keyed word, as a full-text query."""
    return namespace_key(namespace) + word


def context_of(namespace: str, content: str, terms: str | None) -> str:
    """The context words a memory was indexed by (``terms``, of an earlier version): its
    namespace's keyed words that its content does not hold, kept when it is keyed again and
    carried by an export (`transfer`)."""
    key = namespace_key(namespace)
    own = set(tokens(content))
    return " ".join(
        t[len(key) :]
        for t in (terms or "").split()
        if t.startswith(key) and t[len(key) :] not in own
    )
