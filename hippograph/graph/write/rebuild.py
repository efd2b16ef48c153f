"""Rebuild a namespace's memory layer from its log.

The log is what is never derived: the ``Episode`` nodes (every ingested turn), the
``RememberEvent`` nodes (every explicit remember, validated and privacy-filtered, appended by
``writepath.remember``), the ``Tombstone`` nodes (every forget) and the ``EditEvent`` nodes
(every supersede, link, tag, untag and feedback, appended by ``memories.log_edit``). Rebuild
deletes the namespace's memories, tags and decision records, marks every episode unextracted,
then replays remembers, episodes and edits in the order they were recorded (a turn where it
was first extracted: it may have waited in the buffer while remembers came in), through the
same write path and the same edit functions:

- an extracted fact whose content hash was ever forgotten stays forgotten (a forgotten memory
  is not rebuilt, not even as archived: its tombstone is what is left of it);
- an explicit remember is replayed unless the same content was forgotten after it (a remember
  after a forget is the user asking again, and wins);
- an edit is applied after the memories of its instant; one whose memories did not come back
  is skipped and counted (``edit_skipped``);
- a run's lessons point at the run again (``DERIVED_FROM``), so erasing it finds them.

What is kept: with the same extractor and decider (the offline ones are deterministic) a
rebuild yields the same memories under the same ids (``write.ids``: a memory's id derives
from the log entry that made it), with their contents, statuses, strengths, tags, supersessions,
contradictions, explicit links and ratings. Not kept: facts an LLM extracts or decides
differently the second time (new content, new id); ids of facts extracted before ids were
derived (new at the first rebuild, stable from then on: remembers of that time keep theirs,
read from their decisions); edits made before they were logged; uses, recall effects and
consolidation, which the next consolidation run redoes.

Each write is replayed on the clock of the log entry it replays (``clock.replaying``, this
thread only): a remember or an edit at the time it was logged, a batch of turns at the time the
last of them was first extracted. So the service-clock stamps the replay leaves
(``recorded_at``, ``superseded_at``, ``updated_at``...) are the original writes' (to the turn
batch), and ``recall(asOf:)`` answers after a rebuild as before it: replayed on today's clock,
every memory was learned at the rebuild.

A rebuild that dies midway (kill -9, a crash, the graph gone) is finished by the next one:
the wipe writes a ``RebuildState {namespace, holder, started}`` node in its own transaction and
the replay removes it at the end, so while it is there the namespace holds only part of its
memories, and wipe + replay, being idempotent, is run again: by the next ``rebuild`` of the
namespace, by ``resume`` (the ``serve`` start-up and the worker's consolidation job call it) or
by both, one after the other under the lock. Reads meanwhile see the part replayed so far.

Rebuild holds the consolidation lock so the two never interleave.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from hippograph.graph import clock, validate
from hippograph.graph.model import (
    ChunkPosition,
    Episode,
    NewMemory,
    Source,
    content_hash,
    now_iso,
    parse_iso,
    to_episode,
)
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.store import lease
from hippograph.graph.store.store import Row, Store, Tx
from hippograph.graph.write import episodes, ids
from hippograph.graph.write.plan import Outcome
from hippograph.graph.write.tools import DEFAULT_EXTRACTION, ExtractionConfig
from hippograph.graph.write.writepath import WritePolicy, commit

log = logging.getLogger(__name__)
# Applies one logged edit again (``recall.edits.replay``, passed in: the write path sits below
# the recall package that feedback lives in); returns the action to count.
EditReplay = Callable[[Store, str, Row], str]


@dataclass(frozen=True, kw_only=True)
class RebuildResult:
    episodes: int
    remember_events: int
    active: int
    actions: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Unfinished:
    """A rebuild that wiped ``namespace`` and did not finish its replay."""

    namespace: str
    holder: str
    started: str


def rebuild(
    store: Store,
    embedder: Embedder,
    namespace: str,
    *,
    policy: WritePolicy,
    config: ExtractionConfig = DEFAULT_EXTRACTION,
    lock_lease: timedelta = lease.DEFAULT_LEASE,
    edits: EditReplay | None = None,
) -> RebuildResult:
    """Replace the memories of ``namespace`` by those its log yields (also finishing a
    rebuild of it that died midway). Raises ``LockHeld`` while a consolidation or another
    rebuild holds the lock.

    policy: the write policy (privacy filter, tag inference, limits) the replay applies.
    config: the extractor and decider (the configured LLM or the offline ones).
    lock_lease: the consolidation lock's lease, renewed while the rebuild runs.
    edits: replays the log's edits (supersede, link, tag, untag, feedback) in their place;
        None leaves them out.
    """
    validate.namespace(namespace)
    holder = lease.new_holder("rebuild")
    with lease.held(store, holder, now_iso(), lock_lease):
        return _rebuild(store, embedder, namespace, holder, policy, config, edits)


def unfinished(store: Store) -> list[Unfinished]:
    """The rebuilds that wiped a namespace and have not finished replaying it (oldest first):
    one still running, or one that died."""
    return [Unfinished(**row) for row in store.read("rebuild/unfinished")]


def resume(
    store: Store,
    embedder: Embedder,
    *,
    policy: WritePolicy,
    config: ExtractionConfig = DEFAULT_EXTRACTION,
    lock_lease: timedelta = lease.DEFAULT_LEASE,
    namespace: str | None = None,
    edits: EditReplay | None = None,
) -> dict[str, RebuildResult]:
    """Finish every rebuild that died midway (of ``namespace`` only, when given), by
    namespace. Raises ``LockHeld`` while the lock is held (by a rebuild still running, or by a
    dead one until its lease runs out): the caller tries again later. Other parameters as in
    ``rebuild``."""

    def mine(left: Unfinished) -> bool:
        return namespace is None or left.namespace == namespace

    if not any(mine(left) for left in unfinished(store)):
        return {}  # the usual case: no lock taken
    holder = lease.new_holder("rebuild")
    done = {}
    with lease.held(store, holder, now_iso(), lock_lease):
        # Read again under the lock: a run that was alive has finished (and unmarked) meanwhile.
        for left in filter(mine, unfinished(store)):
            log.warning(
                "finishing the rebuild of %s that %s started at %s and did not finish",
                left.namespace, left.holder, left.started,
            )  # fmt: skip
            done[left.namespace] = _rebuild(
                store, embedder, left.namespace, holder, policy, config, edits
            )
    return done


def _rebuild(
    store: Store,
    embedder: Embedder,
    namespace: str,
    holder: str,
    policy: WritePolicy,
    config: ExtractionConfig,
    edits: EditReplay | None,
) -> RebuildResult:
    kept = _replay_ids(store, namespace)

    def wipe(tx: Tx) -> None:
        tx.run("rebuild/begin", namespace=namespace, holder=holder, now=now_iso())
        if kept:  # before the decisions they were read from are deleted
            tx.run("rebuild/keep_ids", namespace=namespace, rows=kept)
        for name in (
            "episode/wipe_memories",
            "episode/wipe_tags",
            "episode/wipe_decisions",
            "entity/wipe_extracted",
            "entity/wipe_unheld",
        ):
            tx.run(name, namespace=namespace)
        tx.run("episode/reset_extraction", namespace=namespace)

    store.write_tx(wipe)
    # The log is read after the wipe: a remember committed in between is replayed (a NOOP on
    # its own memory) rather than wiped and left out.
    events = store.read("episode/remember_events", namespace=namespace)
    rows = [r["episode"] for r in store.read("episode/all", namespace=namespace)]
    turns = [to_episode(r) for r in rows]
    # A turn is replayed when it was first extracted (it may have waited in the buffer while
    # remembers came in; ``episode/reset_extraction`` keeps the time).
    timeline: list[tuple[str, int, Any]] = [
        (r.get("first_extracted_at") or e.recorded_at, 1, e)
        for r, e in zip(rows, turns, strict=True)
    ]
    timeline += [(r["at"], 0, r) for r in events]  # a remember sorts before turns of its instant
    if edits is not None:  # an edit after the memories of its instant
        timeline += [(r["at"], 2, r) for r in store.read("edit/list", namespace=namespace)]
    timeline.sort(key=lambda t: (t[0], t[1]))
    actions: Counter[str] = Counter()
    waiting: list[Episode] = []
    last = ""  # when the waiting turns' last one was first extracted
    for at, kind, entry in timeline:
        if kind == 1:
            waiting.append(entry)
            last = at
            continue
        actions.update(_flush(store, embedder, waiting, last, policy, config))
        waiting = []
        with clock.replaying(parse_iso(at)):
            if kind == 2 and edits is not None:
                actions[edits(store, namespace, entry)] += 1
                continue
            every = entry["ids"] or ids.remembered(namespace, entry["id"], len(entry["items"]))
            # An erased item (graph/write/erasure.py) left a marker: the others keep their ids.
            replayed = [(json.loads(raw), i) for raw, i in zip(entry["items"], every, strict=True)
                        if not json.loads(raw).get("erased")]  # fmt: skip
            if not replayed:
                continue
            snippets = [str((raw.get("source") or {}).get("snippet") or "") for raw, _ in replayed]
            outcomes = commit(
                store, embedder, namespace, [_item(raw) for raw, _ in replayed], source="rebuild",
                decider=config.decider, respect_tombstones=True, tombstones_before=entry["at"],
                ids=[i for _, i in replayed],
            )  # fmt: skip
            _relink_runs(store, namespace, snippets, outcomes)
        actions.update(o.action for o in outcomes)
    actions.update(_flush(store, embedder, waiting, last, policy, config))
    store.write("rebuild/end", namespace=namespace)
    active = store.read("memory/count", namespace=namespace, statuses=["active"])[0]["count"]
    return RebuildResult(
        episodes=len(turns), remember_events=len(events), active=int(active), actions=dict(actions)
    )


def _replay_ids(store: Store, namespace: str) -> list[dict[str, Any]]:
    """For each RememberEvent without ``ids`` yet: the ids its items are to be replayed under.
    Those ``write.ids`` derives, except where the event's remember (logged before ids were
    derived) created a memory under a random id, which its ``Decision`` still records."""
    events = [r for r in store.read("episode/remember_events", namespace=namespace) if not r["ids"]]
    if not events:
        return []
    made = {
        (r["at"], r["content_hash"]): r["memory_id"]
        for r in store.read("rebuild/remembered_ids", namespace=namespace)
    }
    rows, used = [], set()
    for event in events:
        # An erased item (a marker, graph/write/erasure.py) has no content: it keeps its place.
        hashes = [content_hash(json.loads(raw).get("content", "")) for raw in event["items"]]
        given = []
        for h, derived in zip(hashes, ids.remembered(namespace, event["id"], len(hashes)),
                              strict=True):  # fmt: skip
            old = made.get((event["at"], h))
            given.append(old if old is not None and old not in used else derived)
            used.add(given[-1])
        rows.append({"id": event["id"], "ids": given})
    return rows


def _flush(
    store: Store,
    embedder: Embedder,
    waiting: list[Episode],
    at: str,
    policy: WritePolicy,
    config: ExtractionConfig,
) -> Counter[str]:
    """Extract the ``waiting`` turns on the clock at ``at``."""
    if not waiting:
        return Counter()
    with clock.replaying(parse_iso(at)):
        return episodes.extract_episodes(store, embedder, waiting, policy=policy, config=config)


def _relink_runs(
    store: Store, namespace: str, snippets: list[str], outcomes: list[Outcome]
) -> None:
    """A run's lessons (their source's snippet names it: ``runs.experience``) point at the run
    again, as when it finished: erasing the run still finds them."""
    by_run: dict[str, list[str]] = {}
    for snippet, outcome in zip(snippets, outcomes, strict=True):
        if snippet.startswith("run ") and outcome.memory_id:
            by_run.setdefault(snippet.removeprefix("run "), []).append(outcome.memory_id)
    for run_id, memory_ids in by_run.items():
        store.write("run/derive", namespace=namespace, run_id=run_id, ids=memory_ids, now=now_iso())


def _item(raw: dict[str, Any]) -> NewMemory:
    source = raw.pop("source", None) or {}
    source["file_paths"] = tuple(source.get("file_paths") or ())
    for key in ("tags", "trigger_patterns", "steps", "prerequisites", "warnings"):
        raw[key] = tuple(raw.get(key) or ())
    chunk = raw.pop("chunk", None)
    return NewMemory(
        **raw, source=Source(**source), chunk=None if chunk is None else ChunkPosition(**chunk)
    )
