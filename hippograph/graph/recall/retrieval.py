"""Recall: the retrieval cascade.

1. Focus: speakers the context names become a cue and leave the searched text (`cues.focus`),
   and so does the frame that reports a turn ("did I mention": `cues.unframe`); a question
   about what "you" said before names the assistant where one speaker restates
   (`cues.asks_addressee`).
2. Hybrid seeds: vector-index top-N (cosine floor; the nearest N when none clears it) plus
   full-text hits (a word the namespace rarely holds in the asked form is searched in its
   other forms too), and when the context names one speaker, that speaker's nearest memories
   among the vector index's hits; and the vocabulary seeds: memories holding a word of the
   namespace near the question that the question does not say, which neither search found
   (`vocabulary`); and the standing instructions whose condition the question asks about
   (`standing`: "Always include version numbers when I ask about software dependencies"
   against "Which libraries are used?"); relevance is
   ``alpha * cosine + (1 - alpha) * full-text / max full-text``.
3. Pseudo-relevance feedback: the query vector moves toward the most relevant memories; the
   moved vector scores every candidate, and the vector seeds are the hits re-ranked by it (or,
   if the preset asks, the index is searched again with it).
4. Breadth-first expansion in Cypher (`recall/expand`), one statement per hop, over weighted
   edges, activation decaying per hop, fan-out bounded per node, hubs skipped.
5. One ranking: relevance + activation + cues, x recency boost x confidence x importance; a
   memory longer than the model reads has its full-text part and activation discounted, and
   so has the activation of a restating speaker's memories (`rank.restating`); the best
   candidates by their own score stay in the top k whatever activation the others received
   (`rank.anchors`), and so do the standing instructions that apply (both: `rank.kept`).

A superseded seed is replaced by its active successor; archived memories stay out unless asked
for; negative memories whose trigger patterns match the context are always surfaced, flagged.

This module runs the steps in order; each lives in its own module: ``seeds`` (1-3), ``expand``
(4), ``rank`` (5 and the session filter), ``surface`` (the answer's memories, negative rules,
history); ``results`` holds the request and answer records.
"""

from __future__ import annotations

import time
from dataclasses import replace

from hippograph.graph import validate
from hippograph.graph.model import MEMORY_TYPES, STATUSES, scopes
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.recall import cues, standing
from hippograph.graph.recall.expand import Scoring, active_count, expand, score
from hippograph.graph.recall.rank import anchors, kept, rank, restating, session_filter
from hippograph.graph.recall.recall_config import DEFAULT_CASCADE, CascadeConfig
from hippograph.graph.recall.results import Explanation as Explanation
from hippograph.graph.recall.results import HistoryEntry as HistoryEntry
from hippograph.graph.recall.results import Recalled as Recalled
from hippograph.graph.recall.results import RecallRequest as RecallRequest
from hippograph.graph.recall.results import RecallResult as RecallResult
from hippograph.graph.recall.results import Step as Step
from hippograph.graph.recall.results import Verdict
from hippograph.graph.recall.seeds import (
    POOL,
    fulltext_hits,
    row_relevance,
    seeds,
    vector_hits,
    vector_prf,
)
from hippograph.graph.recall.seeds import query_words as query_words
from hippograph.graph.recall.surface import materialize, triggered, with_history, with_negatives
from hippograph.graph.recall.verify import Verifier
from hippograph.graph.recall.vocabulary import vocabulary_hits
from hippograph.graph.store.revalidating import Revalidating
from hippograph.graph.store.store import Row, Store
from hippograph.graph.store.store import vector as as_vector

# The namespace's speakers (the speaker cue): cached like the namespace's size (expand.SIZES), so
# a new speaker counts as a cue within seconds (5 s for a read that takes ~1 ms), not on the very
# next recall.
_SPEAKERS: Revalidating[tuple[Store, str], list[str]] = Revalidating(
    lambda key: [r["name"] for r in key[0].read("recall/speakers", namespace=key[1])],
    refresh=POOL,
)
# Its speakers' mean memory lengths (which of them restate: rank.restating), cached the same way.
_LENGTHS: Revalidating[tuple[Store, str], dict[str, float]] = Revalidating(
    lambda key: {
        r["name"]: float(r["length"])
        for r in key[0].read("recall/speaker_lengths", namespace=key[1])
    },
    refresh=POOL,
)


def _hidden(store: Store, namespace: str, as_of: str) -> set[str]:
    return {r["id"] for r in store.read("recall/as_of_hidden", namespace=namespace, as_of=as_of)}


def recall(
    store: Store,
    embedder: Embedder,
    namespace: str,
    request: RecallRequest,
    config: CascadeConfig = DEFAULT_CASCADE,
    *,
    limits: validate.Limits = validate.Limits(),  # noqa: B008 - immutable
    verifier: Verifier | None = None,
) -> RecallResult:
    """The memories relevant to ``request.context``, best first (see the module docstring).
    ``verifier``: checks the best candidates when the request asks (the configured LLM)."""
    started = time.perf_counter()
    validate.namespace(namespace)
    context = validate.content(request.context, limits, "context")
    k = validate.top_k(request.k, limits)
    for i, t in enumerate(request.memory_types):
        validate.choice(t, MEMORY_TYPES, f"memoryTypes[{i}]")
    validate.choice(request.rejected, REJECTED, "rejected")
    validate.optional_text(request.project, "project")
    validate.optional_text(request.session_id, "sessionId")
    statuses = ["active", "archived"] if request.include_archived else ["active"]
    as_of = validate.as_of(request.as_of)
    # The seed statements take only what was current as of a past time ($as_of), so that later
    # memories do not fill the seeds and leave fewer than k; what expansion reaches that was
    # not current then is dropped before ranking. As of a past time every status may have been
    # current. Without asOf nothing of this runs.
    scope = {"scopes": scopes(request.project, request.session_id), "as_of": as_of}
    hidden_job = POOL.submit(_hidden, store, namespace, as_of) if as_of else None
    if as_of:
        statuses = list(STATUSES)

    speakers = _SPEAKERS.get((store, namespace))
    restates = (
        restating(_LENGTHS.get((store, namespace)), config)
        if config.restating_activation < 1 or config.addressee_weight > 0
        else frozenset()
    )
    focused, named = cues.focus(context, speakers)
    if config.unframe:
        focused = cues.unframe(focused)
    # "you" in a question about what was said before: the one restating speaker (an assistant).
    addressed = (
        restates
        if config.addressee_weight > 0
        and len(restates) == 1
        and not named
        and cues.asks_addressee(context)
        else frozenset()
    )
    seed_statuses = [*statuses, "superseded"]
    # Neither the full-text seeds nor the negative rules need the query vector: the engine
    # answers them while the model embeds the query (ONNX Runtime and the driver release the
    # GIL).
    fulltext_job = POOL.submit(
        fulltext_hits, store, namespace, focused, seed_statuses, scope, config
    )
    flagged_job = POOL.submit(triggered, store, namespace, context, scope, config)
    rules_job = (
        POOL.submit(standing.rules, store, namespace, statuses, scope, config)
        if config.standing_rules > 0
        else None
    )
    t0 = time.perf_counter()
    query = embedder.embed([focused])[0]
    embed_ms = (time.perf_counter() - t0) * 1000

    retired: set[str] = set()
    # Every memory id the statements return comes with its element id: later statements look
    # memories up by it (direct, not through the id index) and check the id.
    eids: dict[str, str] = {}
    # The standing instructions whose condition the context asks about (matched against the
    # question itself, before feedback moves it).
    applying = standing.matching(rules_job.result(), embedder, query, config) if rules_job else {}
    eids.update((i, eid) for i, (eid, _) in applying.items())
    fulltext, retired_ft, eids_ft = fulltext_job.result()
    retired |= retired_ft
    eids.update(eids_ft)
    # The vocabulary seeds need the query vector and the full-text hits (what they found is not
    # the vocabulary's to seed), and run beside the vector search; turned off, nothing runs.
    vocabulary_job = (
        POOL.submit(
            vocabulary_hits, store, namespace, query, set(query_words(focused)), seed_statuses,
            scope, config, list(fulltext),
        )
        if config.vocabulary_seeds > 0
        else None
    )  # fmt: skip
    speaker = next(iter(named)) if len(named) == 1 else None
    if config.prf_weight > 0:
        # The vector seeds and the feedback on them in one statement.
        vector, query, moved, spoken = vector_prf(
            store, namespace, query, fulltext, config, seed_statuses, scope, retired, eids,
            speaker,
        )  # fmt: skip
        if config.prf_search:
            vector = vector_hits(
                store, namespace, query, config, seed_statuses, scope, retired, eids
            )
        elif moved:
            # The hits at hand re-ranked by their cosine to the moved query: what a second
            # search would return where it finds nothing new, without its cost.
            vector = moved
    else:
        vector = vector_hits(store, namespace, query, config, seed_statuses, scope, retired, eids)
        spoken = (
            vector_hits(
                store, namespace, query, config, seed_statuses, scope, retired, eids,
                speaker=speaker,
            )
            if speaker
            else {}
        )  # fmt: skip

    words: dict[str, float] = {}
    if vocabulary_job is not None:
        found, retired_vo, eids_vo = vocabulary_job.result()
        # What the vector search found (below the seeds' floor too) is not the vocabulary's.
        words = {i: w for i, w in found.items() if i not in vector and i not in spoken}
        retired |= retired_vo & words.keys()
        eids.update((i, eids_vo[i]) for i in words)
    if as_of:
        retired.clear()  # a memory current then answers as itself, not as its successor
    traces = seeds(
        store, namespace, vector, fulltext, config, retired, eids, spoken, words, list(applying)
    )
    embedding = as_vector(query)
    top_ft = max(fulltext.values(), default=0.0)
    scoring = Scoring(
        # The speaker cue counts only when the context names one speaker, the restating speaker's
        # discount only where one speaker restates: otherwise the engine is spared reading every
        # candidate's tags.
        params={"embedding": embedding, "with_speakers": len(named) == 1 or bool(restates)},
        relevance=lambda row: row_relevance(row, fulltext, top_ft, config),
        eids=eids,
    )
    scored: dict[str, Row] = {}
    if len(traces) > config.frontier:
        # The first hop expands the most relevant seeds only: score them before it.
        score(store, namespace, list(traces), scoring, scored, traces)
    total = active_count(store, namespace) if config.depth else 0
    expand(store, namespace, traces, config, statuses, scope, total, scoring, scored)
    rest = [i for i in traces if i not in scored]
    if rest:  # no expansion ran, or a successor or a seed it did not reach
        score(store, namespace, rest, scoring, scored, traces)
    rows = list(scored.values())
    if hidden_job is not None:
        hidden = hidden_job.result()
        rows = [r for r in rows if r["id"] not in hidden]
    ranked, best = rank(
        rows, traces, fulltext, named, restates, addressed, context, request, config, statuses
    )
    flagged = flagged_job.result()
    # The standing instructions that apply first, then the anchors: inside the top k.
    ranked = kept(ranked, k, [*applying, *anchors(ranked, k, config.anchors)])
    chosen, reset = session_filter(store, namespace, request, query, ranked, k, config)
    items = materialize(store, namespace, chosen, embedding, scoring.pairs([c.id for c in chosen]))
    items = with_negatives(store, namespace, items, flagged, query)
    gap = best < config.min_relevance and not flagged
    if best < config.min_relevance and not request.include_gap:
        items = [r for r in items if r.flagged]  # nothing relevant: only the rules that trigger
    verdict = None
    verification = "not requested"
    if request.verify:
        if verifier is None:
            verification = "unverified: no LLM is configured"
        else:
            verdict = verifier.verify(context, items)
            verification = verdict.status
            items = _apply_verdict(items, verdict, request.rejected)
    if request.include_history:
        items = with_history(store, namespace, items)
    if not request.explain:
        items = [
            Recalled(memory=r.memory, score=r.score, flagged=r.flagged, rejected=r.rejected,
                     history=r.history)
            for r in items
        ]  # fmt: skip
    return RecallResult(
        items=tuple(items),
        gap=gap,
        verification=verification,
        verdict=verdict,
        best_relevance=best,
        topic_reset=reset,
        embed_ms=embed_ms,
        total_ms=(time.perf_counter() - started) * 1000,
    )


REJECTED = ("drop", "flag")


def _apply_verdict(items: list[Recalled], verdict: Verdict, mode: str) -> list[Recalled]:
    """Drop or mark what the verifier rejected (an unverified verdict changes nothing)."""
    if not verdict.verified or not verdict.rejected:
        return items
    rejected = set(verdict.rejected)
    if mode == "drop":
        return [r for r in items if r.memory.id not in rejected]
    return [replace(r, rejected=True) if r.memory.id in rejected else r for r in items]
