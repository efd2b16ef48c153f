"""Everything a process needs to serve or maintain memories, opened once and closed once."""

from __future__ import annotations

import gc
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from hippograph.graph.models.embedder import Embedder
from hippograph.graph.models.llm import JsonCompleter
from hippograph.graph.recall import bundle, feedback
from hippograph.graph.recall.bundle import ContextBundle, ContextRequest
from hippograph.graph.recall.caches import RecallCaches
from hippograph.graph.recall.nextturn import NextTurn
from hippograph.graph.recall.recall_config import CascadeConfig
from hippograph.graph.recall.recipes import DEFAULT_CASCADE, ENTITIES
from hippograph.graph.recall.retrieval import Recalled, RecallResult, Services
from hippograph.graph.recall.verify import Verifier
from hippograph.graph.store.store import Store
from hippograph.graph.text import privacy
from hippograph.graph.validate import Limits
from hippograph.graph.write import formation, migrate
from hippograph.graph.write.decide import Decider
from hippograph.graph.write.tools import chat_client, write_tools
from hippograph.graph.write.writepath import WritePolicy
from hippograph.settings import Settings

log = logging.getLogger(__name__)
# Once a stop is asked for, how long closing waits for transactions still running before the
# engine closes and rolls them back: with the 5 s for requests in flight (api/serve.py) and the
# engine's stop, a serve under load ends within 10 s.
STOP_WAIT_S = 2.0


class Background:
    """One daemon thread running maintenance after queries, off their critical path.

    The queue is bounded: when maintenance falls behind, new tasks are dropped (and counted)
    rather than slowing queries down; maintenance is best effort, data writes never go here.
    """

    def __init__(self, size: int = 1000) -> None:
        self._queue: queue.Queue[Callable[[], None] | None] = queue.Queue(maxsize=size)
        self.dropped = 0
        self.thread = threading.Thread(target=self._run, name="hippograph-maintenance", daemon=True)
        self.thread.start()

    def submit(self, task: Callable[[], None]) -> None:
        try:
            self._queue.put_nowait(task)
        except queue.Full:
            self.dropped += 1
            log.warning("maintenance queue full; dropped a task (%d so far)", self.dropped)

    def drain(self, timeout: float = 30.0) -> None:
        """Wait until every queued task has run (tests, shutdown)."""
        done = threading.Event()
        self.submit(done.set)
        done.wait(timeout)

    def close(self) -> None:
        self.drain()
        self._queue.put(None)
        self.thread.join(timeout=5)

    def _run(self) -> None:
        while (task := self._queue.get()) is not None:
            try:
                task()
            except Exception:  # noqa: BLE001 - maintenance must never kill the thread
                log.exception("maintenance task failed")


@dataclass
class Runtime:
    settings: Settings
    store: Store
    embedder: Embedder
    policy: WritePolicy
    background: Background = field(default_factory=Background)
    # Post-retrieval maintenance, coalesced (None: none, e.g. a job worker).
    upkeep: RecallUpkeep | None = None
    # Released on close (the LLM client's HTTP pool, when one is configured).
    closers: list[Callable[[], None]] = field(default_factory=list)
    # Next-turn mode: context bundles built in the background (None: not offered, e.g. jobs).
    next_turn: NextTurn | None = None
    # Relevance verification by the configured LLM (None: no LLM configured).
    verifier: Verifier | None = None
    # Recall's thread pools and caches, shut down on close.
    caches: RecallCaches = field(default_factory=RecallCaches)
    # Told of every recall a client made (the API's metrics); called on the recall's thread.
    recall_observers: list[Callable[[RecallResult], None]] = field(default_factory=list)
    # The configured LLM, which distils finished runs (None: the offline rules).
    llm: JsonCompleter | None = None
    # A stop was asked for (``stop_work``): heavy work is refused, closing waits less.
    stopping: bool = False

    @classmethod
    def assemble(cls, settings: Settings, store: Store, embedder: Embedder) -> Runtime:
        """A runtime over an open store and a loaded model: the configured decider (the LLM
        when one is configured, else the offline rules) and post-retrieval maintenance."""
        tools = write_tools(settings)
        rt = cls(settings, store, embedder, write_policy(settings, decider=tools.decider))
        rt.closers.append(tools.close)
        rt.llm = tools.client
        rt.upkeep = RecallUpkeep(store, rt.background, interval_s=settings.recall.upkeep_interval_s)
        rt.next_turn = NextTurn(rt.context_bundle)
        # A client of its own: a recall waits on it, so its timeout is the recall's bound.
        client = chat_client(settings, timeout_s=settings.recall.verify_timeout_s)
        if client is not None:
            rt.closers.append(client.close)
            rt.verifier = Verifier(client, top_m=settings.recall.verify_top_m)
        return rt

    @classmethod
    def open(cls, settings: Settings, *, attach: bool = True) -> Runtime:
        """Open the graph (starting the embedded engine if needed), load the embedding model,
        install the schema. ``attach`` as in ``Store.open``."""
        started = time.perf_counter()
        embedder = Embedder.from_settings(settings)
        # The model loads after the engine, on this thread: loading it on another thread while
        # the JVM started was the first suspect of a crash at exit, and one after the other
        # leaves native start-up to one thread at a time (docs/research/footprint.md).
        store = Store.open(settings, attach=attach)
        try:
            embedder.load()
        except BaseException:
            store.close()
            raise
        try:
            store.install_schema(dimensions=embedder.dimensions)
            migrate.rekey(store)
            migrate.standing(store)
            migrate.scope_keys(store)
        except BaseException:
            store.close()
            raise
        log.info("runtime ready in %.1fs (%s)", time.perf_counter() - started, store.location)
        rt = cls.assemble(settings, store, embedder)
        settle_heap(settings.graph.gc_young_threshold)
        return rt

    @property
    def limits(self) -> Limits:
        return self.policy.limits

    @property
    def services(self) -> Services:
        """What this runtime's recalls use besides the cascade: its limits, verifier and
        caches."""
        return Services(limits=self.limits, verifier=self.verifier, caches=self.caches)

    @property
    def cascade(self) -> CascadeConfig:
        """The retrieval cascade, with the configured edge-confidence floor, vocabulary
        seeds and entities."""
        base = ENTITIES if self.settings.recall.entities else DEFAULT_CASCADE
        return base.changed(
            edge_floor=self.settings.recall.min_edge_confidence,
            vocabulary_seeds=self.settings.recall.vocabulary_seeds,
        )

    def context_bundle(
        self, namespace: str, request: ContextRequest, *, record: bool = True
    ) -> ContextBundle:
        """A context bundle (``graph.recall.bundle``) with this runtime's cascade and limits;
        its recall feeds post-retrieval maintenance like any recall unless ``record`` is False
        (a read that must write nothing: GraphQL over GET)."""
        # Without the verifier: a bundle's recall is not verified.
        services = Services(limits=self.limits, caches=self.caches)
        found = bundle.build(
            self.store, self.embedder, namespace, request, self.cascade, services=services
        )
        if record:
            self.after_recall(namespace, request.context, found.result)
        return found

    def after_recall(self, namespace: str, context: str, result: RecallResult) -> None:
        """Queue post-retrieval maintenance and tell ``recall_observers``; returns at once."""
        for observe in self.recall_observers:
            observe(result)
        if self.upkeep is not None:
            self.upkeep.add(namespace, context, result)

    def settle(self) -> None:
        """Write the queued maintenance now and wait for it (tests, shutdown)."""
        if self.upkeep is not None:
            self.background.submit(self.upkeep.flush)
        self.background.drain()

    def stop_work(self) -> None:
        """A stop was asked for (SIGINT, SIGTERM): encodes and statements not yet started fail
        at once (the maintenance thread's excepted: it writes what recalls queued), those in
        flight go on, and ``close`` waits at most ``STOP_WAIT_S`` for them before the engine
        closes and rolls back what is left. Returns at once (a signal handler calls it)."""
        self.stopping = True
        self.embedder.stop()
        self.store.drain(keep=self.background.thread)

    def close(self) -> None:
        try:
            if self.next_turn is not None:
                self.next_turn.close()  # before upkeep settles: its recalls feed upkeep
            self.settle()
            self.background.close()
            for close in self.closers:
                close()
            self.caches.close()  # its refreshes read the store: before the store closes
        finally:
            if self.stopping:
                self.store.close(wait_s=STOP_WAIT_S)
            else:
                self.store.close()


def settle_heap(young_threshold: int) -> None:
    """Move everything loaded so far (the model runtime, the driver: millions of objects) out of
    the cyclic garbage collector's reach. Without this each full collection walks them all,
    a pause of about 250 ms that came every second or so under recall load.

    Then collect the young generation once per ``young_threshold`` allocations (the older
    generations keep their thresholds): at Python's default of 700 a recall ran several young
    collections, a few milliseconds of its time, and a batch of 1,000 memories a sixth of
    what it spends outside the embedding (``settings.graph.gc_young_threshold``)."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(young_threshold, middle, old)


class RelevanceJudge(Protocol):
    """Says which of a recall's results are relevant to its context (e.g. the configured LLM):
    evidence of use, unlike merely being returned. Runs on the background thread."""

    def relevant(self, context: str, items: Sequence[Recalled]) -> Sequence[str]:
        """The ids of ``items`` relevant to ``context``, best first."""
        ...


class RecallUpkeep:
    """Post-retrieval maintenance, coalesced. Being returned is not being used: a recall
    counts what it returned (``returned_count``, ``last_returned_at``: diagnostics, read by
    no ranking, decay or archiving) and logs a context that found nothing relevant as a gap
    (its secrets redacted first, whatever the privacy mode). Nothing it returned is reinforced
    or linked unless a ``judge`` (a relevance verdict, e.g. of the configured LLM; none is
    built yet) says it was relevant: those count as used together (``feedback.after_recalls``).
    The client's own report of use goes through ``feedback.use`` directly. Negative rules are
    included in every matching recall, so they are neither counted nor judged.

    Recalls are queued and written together, one transaction per namespace, on the background
    thread: ``interval_s`` after the first one waiting, or once ``batch`` wait (a flush's cost
    grows with it). One transaction per recall ran beside nearly every next recall: at 100,000
    memories on 2 cores it cost recall ~7 ms at p50 and ~12 ms at p95; a flush every few
    seconds touches about one recall in a hundred. Best effort like all maintenance: past
    ``max_pending`` recalls waiting, new ones are dropped and counted."""

    def __init__(
        self,
        store: Store,
        background: Background,
        *,
        interval_s: float = 5.0,
        batch: int = 200,
        max_pending: int = 5000,
        judge: RelevanceJudge | None = None,
    ) -> None:
        self.store, self.background, self.judge = store, background, judge
        self.interval_s, self.batch, self.max_pending = interval_s, batch, max_pending
        self.dropped = 0
        self._pending: list[tuple[str, str, RecallResult]] = []
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()

    def add(self, namespace: str, context: str, result: RecallResult) -> None:
        with self._lock:
            if len(self._pending) >= self.max_pending:
                self.dropped += 1
                log.warning("recall upkeep behind; dropped one (%d so far)", self.dropped)
                return
            self._pending.append((namespace, context, result))
            if len(self._pending) == self.batch:
                self.background.submit(self.flush)
            elif self._timer is None:
                self._timer = threading.Timer(self.interval_s, self.background.submit, [self.flush])
                self._timer.daemon = True
                self._timer.start()

    def flush(self) -> None:
        """Write everything queued (on the background thread, or wherever it is called)."""
        with self._lock:
            pending, self._pending = self._pending, []
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        shown: dict[str, list[list[str]]] = {}
        judged: dict[str, list[tuple[Sequence[str], Sequence[str]]]] = {}
        rejected: dict[str, list[Sequence[str]]] = {}
        for namespace, context, result in pending:
            if result.gap:
                redacted = privacy.apply(context, field="context", mode="redact")
                self._safely(feedback.log_gap, namespace, redacted, result.best_relevance or None)
                continue
            items = [item for item in result.items if not item.flagged]
            if not items:
                continue
            shown.setdefault(namespace, []).append([item.memory.id for item in items])
            verdict = result.verdict
            if verdict is not None and verdict.verified:
                # The configured LLM checked this recall: its verdict is the evidence.
                if verdict.relevant:
                    judged.setdefault(namespace, []).append((verdict.relevant, verdict.relevant))
                if verdict.rejected:
                    rejected.setdefault(namespace, []).append(verdict.rejected)
            elif self.judge is not None:
                relevant = self._judged(context, items)
                if relevant:
                    judged.setdefault(namespace, []).append((relevant, relevant))
        for namespace, ids in shown.items():
            self._safely(feedback.returned, namespace, ids)
        for namespace, uses in judged.items():
            self._safely(feedback.after_recalls, namespace, uses)
        for namespace, refused in rejected.items():
            self._safely(feedback.reject, namespace, refused)

    def _judged(self, context: str, items: Sequence[Recalled]) -> list[str]:
        """The judge's relevant ids, limited to what the recall returned (none on failure)."""
        assert self.judge is not None
        returned = {item.memory.id for item in items}
        try:
            return [i for i in self.judge.relevant(context, items) if i in returned]
        except Exception:  # noqa: BLE001 - no verdict is no evidence, never a failed flush
            log.exception("relevance judge failed; nothing reinforced")
            return []

    def _safely(self, write: Callable[..., object], namespace: str, *args: object) -> None:
        try:
            write(self.store, namespace, *args)
        except Exception:  # noqa: BLE001 - one namespace's failure must not stop the others
            log.exception("recall upkeep failed in namespace %s", namespace)


def write_policy(settings: Settings, *, decider: Decider | None = None) -> WritePolicy:
    """The write path's content filter, tag inference and limits, as configured; ``decider``
    None means the offline decision rules."""
    mode = settings.write.privacy_mode

    def content_filter(text: str, field: str) -> str:
        return privacy.apply(text, field=field, mode=mode)

    return WritePolicy(
        infer_tags=formation.infer_tags,
        limits=Limits(
            max_content_bytes=settings.limits.max_content_bytes,
            max_turn_bytes=settings.limits.max_turn_bytes,
            max_batch=settings.limits.max_batch,
            max_k=settings.limits.max_k,
        ),
        content_filter=content_filter,
        decider=decider,
    )
