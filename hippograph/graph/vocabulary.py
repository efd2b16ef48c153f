"""A namespace's vocabulary: every distinct content word its memories hold, embedded once.

Recall's vocabulary source (`recall.vocabulary`) finds the words of the namespace nearest a
question ("art" -> painting, pottery; "board games" -> chess) and the memories holding them: a
memory that shares neither a word nor much embedding similarity with the question, which the
vector and full-text seeds both miss.

A word is a ``Word`` node of its namespace (uid ``<namespace>|<word>``, ``text``, ``embedding``)
in a vector index of its own (`Dialect.word_index`). Words are `text.fulltext.words` (what the
full-text index holds, so recall finds a word's memories there), without those holding a digit
(a number embeds as noise). `update` adds the words of every memory not stamped with this
VERSION (new, its content edited, or stamped by an older version) and stamps it: it runs as a
job (``vocabulary``), and the benchmarks run it after loading, so the source works on a store
of any age and whichever path wrote its memories (write path, import, rebuild). A word costs one
short embedding once per namespace: after a warm start a LoCoMo turn brings 1-2 new words, a
BEAM turn ~14.

`prune` removes, after a hard forget, the forgotten memory's words no memory of the namespace
holds any longer (by the full-text index, any status), so a forgotten text leaves no word
behind.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hippograph.graph.model import STATUSES, now_iso
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.store.store import Store
from hippograph.graph.store.store import vector as as_vector
from hippograph.graph.text import fulltext

# Bumped whenever `words` changes what a memory contributes: every memory is read again.
VERSION = 1
# Pending memories read a scan (one pass over the namespace's memories), and stamped a
# transaction.
READ = 5000
PAGE = 500
# Words looked up, embedded and written per statement.
CHUNK = 1000


@dataclass(frozen=True)
class Update:
    """What one `update` did: memories read and stamped, words added."""

    memories: int = 0
    words: int = 0


def words(content: str) -> list[str]:
    """The vocabulary words of ``content`` (see the module docstring)."""
    return [w for w in fulltext.words(content) if w.isalpha()]


def uid(namespace: str, word: str) -> str:
    return f"{namespace}|{word}"


def update(
    store: Store,
    embedder: Embedder,
    namespace: str,
    *,
    page: int = PAGE,
    progress: Callable[[Update], None] | None = None,
) -> Update:
    """Add the words of ``namespace``'s memories not stamped yet, and stamp them: READ pending
    memories a scan, ``page`` of them a transaction (``progress`` after each). Stops when a scan
    finds none, or stamps none (memories edited meanwhile are left for the next update)."""
    done = Update()
    while rows := store.read(
        "vocabulary/pending", namespace=namespace, version=VERSION, limit=READ
    ):
        stamped = 0
        for start in range(0, len(rows), page):
            chunk = rows[start : start + page]
            found: dict[str, None] = {}
            for row in chunk:
                found.update(dict.fromkeys(words(str(row["content"] or ""))))
            added = _add(store, embedder, namespace, list(found))
            result = store.write(
                "vocabulary/stamp",
                namespace=namespace,
                version=VERSION,
                memories=[{"id": r["id"], "hash": r["hash"]} for r in chunk],
            )
            count = int(result[0]["stamped"]) if result else 0
            stamped += count
            done = Update(done.memories + count, done.words + added)
            if progress is not None:
                progress(done)
        if stamped == 0:
            break
    if done.words:
        # The embedded engine builds its vector graph for new entries at the next search: the
        # update pays for it, not the next recall.
        probe = embedder.embed(["vocabulary"])[0]
        store.read(
            "import/vector_index_ready",
            embedding=as_vector(probe),
            vector_index=store.dialect.word_index,
        )
    return done


def _add(store: Store, embedder: Embedder, namespace: str, found: Sequence[str]) -> int:
    """Add the words of ``found`` the vocabulary lacks; how many."""
    added = 0
    for start in range(0, len(found), CHUNK):
        chunk = found[start : start + CHUNK]
        uids = {uid(namespace, w): w for w in chunk}
        known = {r["uid"] for r in store.read("vocabulary/known", uids=list(uids))}
        new = {u: w for u, w in uids.items() if u not in known}
        if not new:
            continue
        vectors = embedder.embed(list(new.values()))
        store.write(
            "vocabulary/add",
            namespace=namespace,
            now=now_iso(),
            words=[
                {"uid": u, "text": w, "embedding": as_vector(v)}
                for (u, w), v in zip(new.items(), vectors, strict=True)
            ],
        )
        added += len(new)
    return added


def prune(store: Store, namespace: str, contents: Sequence[str]) -> int:
    """Remove the words of ``contents`` (hard-forgotten memories) that no memory of
    ``namespace`` holds any longer; how many went."""
    candidates = list(dict.fromkeys(w for c in contents for w in words(c)))
    if not candidates:
        return 0
    terms = {fulltext.term(namespace, w): w for w in candidates}
    rows = store.read(
        "recall/term_frequencies",
        namespace=namespace,
        terms=list(terms),
        cap=1,
        statuses=list(STATUSES),
    )
    held = {terms[r["term"]] for r in rows if int(r["df"]) > 0 and r["term"] in terms}
    gone = [uid(namespace, w) for w in candidates if w not in held]
    if not gone:
        return 0
    removed = store.write("vocabulary/remove", namespace=namespace, uids=gone)
    return int(removed[0]["removed"]) if removed else 0
