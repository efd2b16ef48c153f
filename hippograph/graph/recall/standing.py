"""Standing instructions at recall: a memory that tells how to answer a kind of request
("Always include version numbers when I ask about software dependencies": `text.standing`)
is returned when the context asks that kind of thing, although the two rarely share words
("Which libraries are used in this project?").

The namespace's standing instructions are read through their index beside the query embedding
(``rules``); the context is matched against each one's condition ("software dependencies"), not
against its whole text, whose directive ("include version numbers") is what the context does
not say. The ``CascadeConfig.gather.standing_rules`` best whose condition's cosine to the context
reaches ``standing_floor`` seed the cascade and are kept inside the top k (``rank.kept``), as a
negative rule whose trigger matches is always surfaced.

Conditions are embedded once per text and model (``ConditionVectors``, bounded): a namespace
holds few of them, and they change only when their memory's content does.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import Any

import numpy as np

from hippograph.graph.models.embedder import Embedder
from hippograph.graph.recall.recall_config import CascadeConfig
from hippograph.graph.store.store import Row, Store
from hippograph.graph.text import standing as text_standing


def rules(
    store: Store, namespace: str, statuses: list[str], scope: dict[str, Any], config: CascadeConfig
) -> list[Row]:
    """The namespace's standing instructions in scope: id, element id and condition each."""
    return store.read(
        "recall/standing_rules",
        namespace=namespace,
        statuses=statuses,
        limit=config.gather.standing_limit,
        identity=text_standing.IDENTITY.condition,
        **scope,
    )


def named_user(found: list[Row]) -> str | None:
    """The user's name, from the identity memory among a namespace's standing ones."""
    names = [text_standing.user_name(str(r["content"])) for r in found if r.get("content")]
    return next((n for n in names if n), None)


class ConditionVectors:
    """Unit embeddings of condition texts, per embedder, the ``size`` most recently used."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._held: weakref.WeakKeyDictionary[Embedder, OrderedDict[str, np.ndarray]] = (
            weakref.WeakKeyDictionary()
        )

    def get(self, embedder: Embedder, texts: list[str]) -> np.ndarray:
        """The embeddings of ``texts`` (one row each), embedding only those not held. A new
        condition is embedded under the lock: rare (once per text), and short."""
        with self._lock:
            held = self._held.setdefault(embedder, OrderedDict())
            missing = [t for t in dict.fromkeys(texts) if t not in held]
            if missing:
                for text, row in zip(missing, embedder.embed(missing), strict=True):
                    held[text] = np.asarray(row, dtype=np.float32)
            for text in texts:
                held.move_to_end(text)
            rows = np.vstack([held[t] for t in texts])
            while len(held) > self._size:
                held.popitem(last=False)
        return rows


def matching(
    found: list[Row],
    embedder: Embedder,
    query: Any,
    config: CascadeConfig,
    vectors: ConditionVectors,
    context: str = "",
) -> dict[str, tuple[str, float]]:
    """The standing instructions of ``found`` whose condition the context (its text
    ``context``, its embedding ``query``) asks about: id -> (element id, how well: the cosine
    of the condition to the context), best first: the ``standing_rules`` best whose cosine
    reaches ``standing_floor``, and besides them up to ``constraint_rules`` whose domain the
    context names (a request of the domain's lexicon, `text.standing.DOMAINS`: "cook" for an
    allergy), at the floor if their cosine is lower. Their conditions' embeddings are held in
    ``vectors`` (the runtime's: `caches`). A near condition is one; a named domain may hold
    several constraints that all apply (an allergy and a diet)."""
    gather = config.gather
    found = [r for r in found if r["condition"]]
    if not found or gather.standing_rules <= 0:
        return {}
    embedded = vectors.get(embedder, [str(r["condition"]) for r in found])
    cosines = [float(c) for c in embedded @ np.asarray(query, dtype=np.float32)]
    floor = gather.standing_floor
    asked = {d.condition for d in text_standing.DOMAINS if d.requests.search(context)}
    near = sorted(
        (i for i in range(len(found)) if cosines[i] >= floor),
        key=lambda i: (-cosines[i], found[i]["id"]),
    )[: gather.standing_rules]
    named = sorted(
        (i for i in range(len(found)) if found[i]["condition"] in asked and i not in near),
        key=lambda i: (-cosines[i], found[i]["id"]),
    )[: gather.constraint_rules]
    chosen = sorted([*near, *named], key=lambda i: (-max(cosines[i], floor), found[i]["id"]))
    return {found[i]["id"]: (found[i]["eid"], max(cosines[i], floor)) for i in chosen}
