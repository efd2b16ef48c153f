"""Rebuild a namespace's memory layer from its log.

The log is what is never derived: the ``Episode`` nodes (every ingested turn), the
``RememberEvent`` nodes (every explicit remember, validated and privacy-filtered, appended by
``writepath.remember``) and the ``Tombstone`` nodes (every forget). Rebuild deletes the
namespace's memories, tags and decision records, marks every episode unextracted, then replays
remembers and episodes in the order they were recorded through the same write path:

- an extracted fact whose content hash was ever forgotten stays forgotten;
- an explicit remember is replayed unless the same content was forgotten after it (a remember
  after a forget is the user asking again, and wins).

With the same extractor and decider (the offline ones are deterministic) a fresh rebuild yields
the same active facts. Not replayed: manual edits after the fact (``supersede``, ``link``,
``tag``, ``untag``) and consolidation, which the next consolidation run redoes. Rebuild holds
the consolidation lock so the two never interleave.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from hippograph.graph import validate
from hippograph.graph.model import ChunkPosition, NewMemory, Source, now_iso
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.store import lease
from hippograph.graph.store.store import Store, Tx
from hippograph.graph.write import episodes, ids
from hippograph.graph.write.tools import DEFAULT_EXTRACTION, ExtractionConfig
from hippograph.graph.write.writepath import WritePolicy, commit


@dataclass(frozen=True, kw_only=True)
class RebuildResult:
    episodes: int
    remember_events: int
    active: int
    actions: dict[str, int] = field(default_factory=dict)


def rebuild(
    store: Store,
    embedder: Embedder,
    namespace: str,
    *,
    policy: WritePolicy,
    config: ExtractionConfig = DEFAULT_EXTRACTION,
    lock_lease: timedelta = lease.DEFAULT_LEASE,
) -> RebuildResult:
    """Replace the memories of ``namespace`` by those its log yields."""
    validate.namespace(namespace)
    with lease.held(store, lease.new_holder("rebuild"), now_iso(), lock_lease):
        return _rebuild(store, embedder, namespace, policy, config)


def _rebuild(
    store: Store,
    embedder: Embedder,
    namespace: str,
    policy: WritePolicy,
    config: ExtractionConfig,
) -> RebuildResult:
    events = store.read("episode/remember_events", namespace=namespace)
    log = [
        episodes.to_episode(r["episode"]) for r in store.read("episode/all", namespace=namespace)
    ]

    def wipe(tx: Tx) -> None:
        for name in ("episode/wipe_memories", "episode/wipe_tags", "episode/wipe_decisions"):
            tx.run(name, namespace=namespace)
        tx.run("episode/reset_extraction", namespace=namespace)

    store.write_tx(wipe)
    timeline: list[tuple[str, int, Any]] = [(e.recorded_at, 1, e) for e in log]
    timeline += [(r["at"], 0, r) for r in events]  # a remember sorts before turns of its instant
    timeline.sort(key=lambda t: (t[0], t[1]))
    actions: Counter[str] = Counter()
    waiting: list[episodes.Episode] = []
    for _, kind, entry in timeline:
        if kind == 1:
            waiting.append(entry)
            continue
        actions.update(_flush(store, embedder, waiting, policy, config))
        waiting = []
        items = [_item(json.loads(raw)) for raw in entry["items"]]
        outcomes = commit(
            store, embedder, namespace, items, source="rebuild", decider=config.decider,
            respect_tombstones=True, tombstones_before=entry["at"],
            ids=ids.remembered(namespace, entry["id"], len(items)),
        )  # fmt: skip
        actions.update(o.action for o in outcomes)
    actions.update(_flush(store, embedder, waiting, policy, config))
    active = store.read("memory/count", namespace=namespace, statuses=["active"])[0]["count"]
    return RebuildResult(
        episodes=len(log), remember_events=len(events), active=int(active), actions=dict(actions)
    )


def _flush(
    store: Store,
    embedder: Embedder,
    waiting: list[episodes.Episode],
    policy: WritePolicy,
    config: ExtractionConfig,
) -> Counter[str]:
    if not waiting:
        return Counter()
    return episodes.extract_episodes(store, embedder, waiting, policy=policy, config=config)


def _item(raw: dict[str, Any]) -> NewMemory:
    source = raw.pop("source", None) or {}
    source["file_paths"] = tuple(source.get("file_paths") or ())
    for key in ("tags", "trigger_patterns", "steps", "prerequisites", "warnings"):
        raw[key] = tuple(raw.get(key) or ())
    chunk = raw.pop("chunk", None)
    return NewMemory(
        **raw, source=Source(**source), chunk=None if chunk is None else ChunkPosition(**chunk)
    )
