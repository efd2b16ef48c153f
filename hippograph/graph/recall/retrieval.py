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

``recall`` reads the question (``prepare``: its ``candidates.Query`` and ``Cues``) and runs five
stages over one ``candidates.Pool``, each in its own module with its own config: gather
(`gather`, steps 1-3), spread (`expand`, 4), score (`rank.rank`, 5), choose (`rank.choose`: the
kept candidates and the session filter) and answer (`surface.answer`), with the ``Services``
the caller passes (its limits, verifier and the pools and caches kept between recalls:
`caches`). ``results`` holds the request and answer records; ``recipes`` the named cascades.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from hippograph.graph import tracing, validate
from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import MEMORY_TYPES, STATUSES, scopes
from hippograph.graph.models.embedder import Embedder
from hippograph.graph.recall import cues
from hippograph.graph.recall.caches import DEFAULT, RecallCaches
from hippograph.graph.recall.candidates import Cues, Query
from hippograph.graph.recall.expand import spread
from hippograph.graph.recall.gather import gather
from hippograph.graph.recall.rank import choose, rank, restating
from hippograph.graph.recall.recall_config import REJECTED as REJECTED
from hippograph.graph.recall.recall_config import CascadeConfig
from hippograph.graph.recall.recipes import DEFAULT_CASCADE
from hippograph.graph.recall.results import Explanation as Explanation
from hippograph.graph.recall.results import HistoryEntry as HistoryEntry
from hippograph.graph.recall.results import Recalled as Recalled
from hippograph.graph.recall.results import RecallRequest as RecallRequest
from hippograph.graph.recall.results import RecallResult as RecallResult
from hippograph.graph.recall.results import Step as Step
from hippograph.graph.recall.seeds import query_words as query_words
from hippograph.graph.recall.surface import answer
from hippograph.graph.recall.verify import Verifier
from hippograph.graph.store.store import Store


@dataclass(frozen=True, kw_only=True)
class Services:
    """What a recall uses besides its store, model and cascade."""

    limits: validate.Limits = validate.Limits()  # the request's bounds (context size, k)
    verifier: Verifier | None = None  # checks the best candidates when asked (the LLM)
    caches: RecallCaches = DEFAULT  # pools and caches kept between recalls (the runtime's)


def recall(
    store: Store,
    embedder: Embedder,
    namespace: str,
    request: RecallRequest,
    config: CascadeConfig = DEFAULT_CASCADE,
    *,
    services: Services = Services(),  # noqa: B008 - frozen; its caches the shared default
) -> RecallResult:
    """The memories relevant to ``request.context``, best first (see the module docstring)."""
    started = time.perf_counter()
    with tracing.span("recall.seeds", namespace) as span:
        q = prepare(store, namespace, request, config, services)
        pool = gather(q, embedder)
        span.set_attribute("k", q.k)
        span.set_attribute("seeds", len(pool.candidates))
        span.set_attribute("embed_ms", round(pool.embed_ms, 3))
    with tracing.span("recall.expansion") as span:
        spread(q, pool)
        span.set_attribute("candidates", len(pool.candidates))
    with tracing.span("recall.ranking") as span:
        ranked, best = rank(q, pool)
        chosen, reset = choose(q, pool, ranked)
        span.set_attribute("chosen", len(chosen))
    with tracing.span("recall.answer") as span:
        result = answer(q, pool, chosen, best, services.verifier)
        span.set_attribute("items", len(result.items))
        span.set_attribute("gap", result.gap)
    return replace(result, topic_reset=reset, total_ms=(time.perf_counter() - started) * 1000)


def prepare(
    store: Store,
    namespace: str,
    request: RecallRequest,
    config: CascadeConfig,
    services: Services,
) -> Query:
    """The validated request as the stages read it, with its cues. As of a past time every
    status may have been current, and the seed statements take only what was current then
    ($as_of), so that later memories do not fill the seeds and leave fewer than k."""
    validate.namespace(namespace)
    context = validate.content(request.context, services.limits, "context")
    k = validate.top_k(request.k, services.limits)
    if len(request.memory_types) > len(MEMORY_TYPES):
        raise InvalidInput(
            "memoryTypes",
            f"{len(request.memory_types)} types; at most {len(MEMORY_TYPES)}, each once",
            limit=len(MEMORY_TYPES),
        )
    for i, t in enumerate(request.memory_types):
        validate.choice(t, MEMORY_TYPES, f"memoryTypes[{i}]")
    validate.choice(request.rejected, REJECTED, "rejected")
    validate.optional_text(request.project, "project")
    validate.optional_text(request.session_id, "sessionId")
    as_of = validate.as_of(request.as_of)
    valid_at = validate.as_of(request.valid_at, "validAt")
    if as_of:
        statuses = list(STATUSES)
    elif valid_at:
        statuses = ["active", "superseded"]
    else:
        statuses = ["active", "archived"] if request.include_archived else ["active"]
    return Query(
        store=store,
        namespace=namespace,
        request=request,
        context=context,
        k=k,
        config=config,
        cues=read_cues(store, namespace, context, config, services.caches),
        statuses=statuses,
        scope={"scopes": scopes(request.project, request.session_id), "as_of": as_of},
        as_of=as_of,
        valid_at=valid_at,
        caches=services.caches,
    )


def read_cues(
    store: Store, namespace: str, context: str, config: CascadeConfig, caches: RecallCaches
) -> Cues:
    """The context's cues: the speakers it names and the reporting frame leave the searched
    text; "you" in a question about what was said before is the one restating speaker (an
    assistant), where one restates. The namespace's speakers and their lengths are read
    through ``caches``."""
    score = config.score
    restates = (
        restating(caches.lengths.get((store, namespace)), config.cues.restating_ratio)
        if score.restating_activation < 1 or score.addressee_weight > 0
        else frozenset()
    )
    searched, named = cues.focus(context, caches.speakers.get((store, namespace)))
    if config.cues.unframe:
        searched = cues.unframe(searched)
    asks_you = (
        score.addressee_weight > 0
        and len(restates) == 1
        and not named
        and cues.asks_addressee(context)
    )
    return Cues(
        searched=searched,
        named=named,
        restates=restates,
        addressed=restates if asks_you else frozenset(),
    )
