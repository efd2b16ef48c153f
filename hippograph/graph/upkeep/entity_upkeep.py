"""Upkeep of entities: their importance, relationships whose evidence stopped holding, and
duplicates proposed for a merge.

Importance is weighted PageRank (``graph.upkeep.pagerank``, GDS's definition) over the entity
graph: current RELATED edges and co-mentions (each active memory naming both adds 1), both
undirected; an entity merged into another counts as that one. It is computed in-process on
every backend: the entity graph is a few nodes per hundred memories, so projecting it into GDS
would cost more than ranking it, and one path keeps one definition.

Merges are only proposed (the consolidation report lists them; ``mergeEntities`` accepts one):
a wrong merge is a worse bug than a missed one, so nothing here merges by itself, and the rules
are the ones with no plausible false positive in a namespace:

* the same name once punctuation, accents and an organisation's legal suffix are set aside
  ("Acme, Inc." and "ACME Inc", "José" and "Jose"), same kind;
* one entity's name is another's alias, same kind;
* a lone first name and the only full name of a person that starts with it ("Ana" and
  "Ana Silva", when no other "Ana ..." is known).
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from hippograph.graph.store.store import Store
from hippograph.graph.upkeep.pagerank import PageRankConfig, changed_rows, pagerank

# A memory naming more entities than this is a roll call: no pair of them is linked by it.
MAX_MEMBERS = 8
_LEGAL = frozenset({"inc", "ltd", "llc", "gmbh", "corp", "co", "plc", "sa", "ag", "company"})


@dataclass(frozen=True, kw_only=True)
class MergeProposal:
    namespace: str
    keep: str  # the entity that would stay (uid)
    keep_name: str
    other: str  # the entity that would be merged into it (uid)
    other_name: str
    reason: str


def rank(store: Store, namespace: str | None, config: PageRankConfig, as_of: str) -> dict[str, int]:
    """Score every entity of ``namespace`` (None: all) and write the scores that changed;
    returns counts (entities, links, updated)."""
    nodes = store.read("job/entity_rank_nodes", namespace=namespace)
    if not nodes:
        return {"entities": 0}
    kept = {str(n["id"]): str(n["kept"] or n["id"]) for n in nodes}
    held = sorted({k for k in kept.values() if k in kept})
    edges: list[tuple[str, str, float]] = []
    for row in store.read("job/entity_rank_edges", namespace=namespace, members=MAX_MEMBERS):
        uids = sorted({kept.get(str(u), str(u)) for u in row["uids"]} & set(held))
        for a, b in combinations(uids, 2):
            edges += [(a, b, 1.0), (b, a, 1.0)]
    scores = pagerank(held, edges, config)
    rows, _ = changed_rows([n for n in nodes if n["id"] in scores], scores)
    updated = 0
    if rows:
        found = store.write("job/entity_rank_write", rows=rows, as_of=as_of)
        updated = int(found[0]["updated"]) if found else 0
    return {"entities": len(held), "links": len(edges) // 2, "updated": updated}


def end_stale(store: Store, namespace: str | None, now: str) -> dict[str, int]:
    """End the relationships whose memory stopped holding (see ``entity/end_stale``)."""
    found = store.write("entity/end_stale", namespace=namespace, now=now)
    row = found[0] if found else {"ended": 0, "moved": 0}
    return {"ended": int(row["ended"] or 0), "moved": int(row["moved"] or 0)}


def merge_proposals(store: Store, namespace: str) -> list[MergeProposal]:
    """Pairs of ``namespace``'s entities that name one thing (see the module), each entity in
    at most one proposal, the more mentioned one kept."""
    rows = store.read("entity/merge_candidates", namespace=namespace)
    return propose(namespace, rows)


def propose(namespace: str, rows: Sequence[dict[str, Any]]) -> list[MergeProposal]:
    """The rules of ``merge_proposals`` over rows of uid, name, canonical, kind, aliases and
    mentions."""
    found: list[MergeProposal] = []
    taken: set[str] = set()

    def add(a: dict[str, Any], b: dict[str, Any], reason: str) -> None:
        if a["uid"] in taken or b["uid"] in taken or a["uid"] == b["uid"]:
            return
        keep, other = sorted((a, b), key=lambda r: (-int(r["mentions"]), -len(r["name"]), r["uid"]))
        taken.update((a["uid"], b["uid"]))
        found.append(MergeProposal(
            namespace=namespace, keep=keep["uid"], keep_name=keep["name"], other=other["uid"],
            other_name=other["name"], reason=reason,
        ))  # fmt: skip

    for group in _groups(rows, lambda r: (r["kind"], _folded(r["canonical"]))):
        for a, b in zip(group, group[1:], strict=False):
            add(a, b, f"the same name: {a['name']!r} and {b['name']!r}")
    by_name = {(r["kind"], r["canonical"]): r for r in rows}
    for r in rows:
        for alias in r["aliases"]:
            other = by_name.get((r["kind"], alias))
            if other is not None and other["uid"] != r["uid"]:
                add(r, other, f"{other['name']!r} is an alias of {r['name']!r}")
    people = [r for r in rows if r["kind"] == "person"]
    full: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in people:
        words = r["canonical"].split()
        if len(words) >= 2:
            full[words[0]].append(r)
    for r in people:
        words = r["canonical"].split()
        if len(words) == 1 and len(full.get(words[0], [])) == 1:
            whole = full[words[0]][0]
            add(
                whole,
                r,
                f"{r['name']!r} is the first name of {whole['name']!r}, the only one known",
            )
    return found


def _groups(rows: Iterable[dict[str, Any]], key: Any) -> list[list[dict[str, Any]]]:
    grouped: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        grouped[key(r)].append(r)
    return [g for g in grouped.values() if len(g) > 1]


def _folded(canonical: str) -> str:
    """``canonical`` without accents, punctuation and a legal suffix ("acme, inc." -> "acme")."""
    plain = unicodedata.normalize("NFKD", canonical)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    words = "".join(c if c.isalnum() else " " for c in plain).split()
    while len(words) > 1 and words[-1] in _LEGAL:
        words.pop()
    return " ".join(words)
