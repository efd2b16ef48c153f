"""A namespace's vocabulary and recall's vocabulary seeds, on the real engines and model: each
word embedded once, a memory's new words added once, a forgotten text's words gone, a near
word the question does not say finding the memory that holds it, one tenant's words never
another's."""

from __future__ import annotations

import json
import uuid

import pytest

from hippograph.graph import memories, transfer, vocabulary
from hippograph.graph.model import NewMemory
from hippograph.graph.recall import retrieval
from hippograph.graph.recall import vocabulary as vocabulary_seeds
from hippograph.graph.recall.caches import WordVectors
from hippograph.graph.recall.recipes import DEFAULT_CASCADE
from hippograph.graph.runtime import Runtime
from hippograph.graph.store.revalidating import Lifetime
from hippograph.graph.store.store import GraphError
from hippograph.graph.store.store import vector as as_vector
from hippograph.graph.write import writepath
from hippograph.jobs import registry
from hippograph.jobs.config import JobsConfig
from hippograph.jobs.runner import RunOptions
from tests.conftest import wipe
from tests.graph.recall.test_termstats import Deferred

ART = [
    "The art museum downtown closes early on Mondays.",
    "We argued about whether modern art is overrated.",
    "I watched a documentary about famous painters of the last century.",
    "The gallery opening had free wine and loud music.",
    "I finished another pottery bowl and glazed it deep blue.",
    "The train was late again this morning.",
    "The quarterly report is due on Friday.",
    "My niece draws comics and wants to go to art school.",
    "Street art covers the old factory walls now.",
]
POTTERY = ART[4]
# Few seeds and no expansion: what the question reaches is what its seeds are.
NARROW = DEFAULT_CASCADE.changed(vector_seeds=3, depth=0)


def remember(rt: Runtime, ns: str, *texts: str) -> list[str]:
    items = [NewMemory(content=t) for t in texts]
    return [
        r.memory.id for r in writepath.remember(rt.store, rt.embedder, ns, items, policy=rt.policy)
    ]


def held(rt: Runtime, ns: str, *words: str) -> set[str]:
    """Which of ``words`` the namespace's vocabulary holds."""
    rows = rt.store.read("vocabulary/known", uids=[vocabulary.uid(ns, w) for w in words])
    return {str(r["uid"]).split("|", 1)[1] for r in rows}


def recall(
    rt: Runtime, ns: str, context: str, config: object = NARROW
) -> dict[str, tuple[str, ...]]:
    """Content -> seed kinds of what ``context`` recalls (k 9, nothing held back)."""
    request = retrieval.RecallRequest(context=context, k=9, include_gap=True, explain=True)
    result = retrieval.recall(rt.store, rt.embedder, ns, request, config)  # type: ignore[arg-type]
    return {
        r.memory.content: r.explanation.seed_kinds if r.explanation else () for r in result.items
    }


def test_each_word_is_added_once_and_each_memory_read_once(
    any_runtime: Runtime, namespace: str
) -> None:
    rt = any_runtime
    remember(rt, namespace, "Pottery class moved to Tuesday.", "The kiln broke on Tuesday 14.")
    first = vocabulary.update(rt.store, rt.embedder, namespace)
    # pottery class moved tuesday / kiln broke; "the", "on" are function words, "14" a number
    assert first == vocabulary.Update(memories=2, words=6)
    assert held(rt, namespace, "pottery", "kiln", "tuesday", "14", "the") == {
        "pottery", "kiln", "tuesday",
    }  # fmt: skip
    assert vocabulary.update(rt.store, rt.embedder, namespace) == vocabulary.Update()
    remember(rt, namespace, "The kiln needs a new pottery shelf.")
    # "needs" is a function word; kiln and pottery are known
    assert vocabulary.update(rt.store, rt.embedder, namespace) == vocabulary.Update(1, 2)
    assert held(rt, namespace, "needs", "new", "shelf") == {"new", "shelf"}


def test_a_near_word_the_question_does_not_say_seeds_the_memory_holding_it(
    any_runtime: Runtime, namespace: str
) -> None:
    rt = any_runtime
    remember(rt, namespace, *ART)
    vocabulary.update(rt.store, rt.embedder, namespace)
    question = "What kind of art do I make?"
    found = recall(rt, namespace, question)
    # "pottery" is near "art" (cosine ~0.46); the bowl is neither among the vector search's
    # hits nor a full-text hit, so without the vocabulary nothing reaches it.
    assert found[POTTERY] == ("vocabulary",)
    assert POTTERY not in recall(rt, namespace, question, NARROW.changed(vocabulary_seeds=0))
    # "art" itself is the question's word: the full-text seeds find its memories, not this source
    assert "vocabulary" not in found[ART[0]]


def test_before_the_vocabulary_is_built_recall_works_without_it(
    runtime: Runtime, namespace: str
) -> None:
    remember(runtime, namespace, *ART)
    found = recall(runtime, namespace, "What kind of art do I make?")
    assert found and POTTERY not in found
    assert all("vocabulary" not in kinds for kinds in found.values())


def test_a_hard_forget_takes_the_words_no_memory_holds_any_longer(
    any_runtime: Runtime, namespace: str
) -> None:
    rt = any_runtime
    bowl, sky, vase = remember(
        rt, namespace, "Glazed pottery bowl, cobalt blue.", "A blue sky today.", "A cracked vase."
    )
    vocabulary.update(rt.store, rt.embedder, namespace)
    words = ("glazed", "pottery", "bowl", "cobalt", "blue", "sky", "cracked", "vase")
    assert held(rt, namespace, *words) == set(words)
    memories.forget(rt.store, namespace, vase, hard=False)  # archived: still held
    memories.forget(rt.store, namespace, bowl, hard=True)
    assert held(rt, namespace, *words) == {"blue", "sky", "cracked", "vase"}
    memories.forget(rt.store, namespace, vase, hard=True)
    assert held(rt, namespace, *words) == {"blue", "sky"}
    assert memories.get(rt.store, namespace, sky).content == "A blue sky today."


def test_the_job_builds_each_namespace_vocabulary_and_no_tenant_sees_another(
    runtime: Runtime, namespace: str
) -> None:
    other = f"test-{uuid.uuid4().hex[:12]}"
    try:
        remember(runtime, namespace, *ART)
        remember(runtime, other, "Lunch was a sandwich.", "The printer jammed twice.")
        run = registry.run_job(
            runtime.store, "vocabulary", JobsConfig(), RunOptions(trigger="cli", namespace=None)
        )
        assert run.status == "succeeded"
        assert run.counts["memories"] >= len(ART) + 2 and run.counts["words"] > 0
        assert held(runtime, other, "pottery", "sandwich") == {"sandwich"}
        assert held(runtime, namespace, "pottery", "sandwich") == {"pottery"}
        # The other tenant's memories are never seeds here, however near its words.
        found = recall(runtime, other, "What kind of art do I make?")
        assert set(found) <= {"Lunch was a sandwich.", "The printer jammed twice."}
        again = registry.run_job(
            runtime.store, "vocabulary", JobsConfig(), RunOptions(trigger="cli", namespace=other)
        )
        assert again.counts["memories"] == 0 and again.counts["words"] == 0
    finally:
        wipe(runtime.store, other)


def test_the_vocabulary_is_not_exported_and_an_import_builds_its_own(
    runtime: Runtime, namespace: str
) -> None:
    remember(runtime, namespace, "Glazed pottery bowl, cobalt blue.")
    vocabulary.update(runtime.store, runtime.embedder, namespace)
    lines = list(transfer.export_lines(runtime.store, namespace))
    [memory] = [line["props"] for line in lines if line["kind"] == "memory"]
    assert "vocabulary" not in memory
    wipe(runtime.store, namespace)
    transfer.import_from(runtime.store, [json.dumps(line) for line in lines])
    assert held(runtime, namespace, "pottery") == set()
    assert vocabulary.update(runtime.store, runtime.embedder, namespace).memories == 1
    assert held(runtime, namespace, "pottery", "cobalt") == {"pottery", "cobalt"}


def test_the_vocabulary_held_in_memory_finds_what_an_exact_scan_finds(
    any_runtime: Runtime, namespace: str
) -> None:
    rt = any_runtime
    remember(rt, namespace, *ART)
    added = vocabulary.update(rt.store, rt.embedder, namespace).words
    loader = Deferred()
    words = WordVectors(loader=loader, page=7)  # several pages
    assert words.get(rt.store, namespace) is None  # nothing held yet: a load is queued
    assert words.get(rt.store, namespace) is None and len(loader.jobs) == 1  # queued once
    loader.run()
    held = words.get(rt.store, namespace)
    assert held is not None and len(held.words) == len(set(held.words)) == added
    query = rt.embedder.embed(["What kind of art do I make?"])[0]
    scan = {
        str(r["word"]): float(r["cosine"])
        for r in rt.store.read(
            "recall/vocabulary_words_exact", namespace=namespace, embedding=as_vector(query), k=8
        )
    }
    nearest = held.nearest(query, 8)
    assert set(nearest) == set(scan) and "pottery" in nearest
    assert all(abs(nearest[w] - scan[w]) < 1e-4 for w in scan)
    assert list(nearest.values()) == sorted(nearest.values(), reverse=True)


def test_a_failed_load_is_tried_again_later_not_on_every_recall(
    runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    remember(runtime, namespace, "Pottery class moved to Tuesday.")
    vocabulary.update(runtime.store, runtime.embedder, namespace)
    read = runtime.store.read

    def failing(name: str, /, **params: object) -> list[dict[str, object]]:
        if name == "recall/vocabulary_page":
            raise GraphError("the engine is gone")
        return read(name, **params)

    monkeypatch.setattr(runtime.store, "read", failing)
    loader = Deferred()
    words = WordVectors(loader=loader, lifetime=Lifetime(cost_ratio=100.0, min_s=60.0, max_s=600.0))
    words.get(runtime.store, namespace)
    loader.run()  # fails: nothing held, the index serves, no load queued until min_ttl_s
    failed = words.get(runtime.store, namespace)
    assert failed is not None and failed.words == () and not loader.jobs
    # The recall itself still finds its near words, by the word index.
    query = runtime.embedder.embed(["When is the ceramics lesson?"])[0]
    assert "pottery" in vocabulary_seeds.near_words(runtime.store, namespace, query, NARROW, words)
    # Once its wait is over, the next read queues the load again, which now succeeds.
    soon = WordVectors(loader=loader, lifetime=Lifetime(cost_ratio=100.0, min_s=0.0, max_s=0.0))
    soon.get(runtime.store, namespace)
    loader.run()  # fails too
    assert soon.get(runtime.store, namespace) is not None and len(loader.jobs) == 1
    monkeypatch.setattr(runtime.store, "read", read)
    loader.run()
    held = soon.get(runtime.store, namespace)
    assert held is not None and "pottery" in held.words


def test_the_vocabulary_held_in_memory_is_reloaded_and_bounded(
    runtime: Runtime, namespace: str
) -> None:
    other = f"test-{uuid.uuid4().hex[:12]}"
    try:
        remember(runtime, namespace, "Pottery class moved to Tuesday.")
        remember(runtime, other, "Lunch was a sandwich.")
        vocabulary.update(runtime.store, runtime.embedder, namespace)
        vocabulary.update(runtime.store, runtime.embedder, other)
        loader = Deferred()
        # Always expired: every read queues a reload and answers what is held meanwhile.
        words = WordVectors(
            loader=loader, lifetime=Lifetime(cost_ratio=100.0, min_s=0.0, max_s=0.0)
        )
        words.get(runtime.store, namespace)
        loader.run()
        first = words.get(runtime.store, namespace)
        assert first is not None and set(first.words) == {"pottery", "class", "moved", "tuesday"}
        remember(runtime, namespace, "The kiln broke.")
        vocabulary.update(runtime.store, runtime.embedder, namespace)
        loader.run()  # the reload the last read queued
        again = words.get(runtime.store, namespace)
        assert again is not None and {"kiln", "broke"} <= set(again.words)
        # A vocabulary over the per-namespace bound is not held: the word index serves it.
        small = WordVectors(loader=loader, per_namespace=3)
        small.get(runtime.store, namespace)
        loader.run()
        too_big = small.get(runtime.store, namespace)
        assert too_big is not None and too_big.words == () and too_big.matrix is None
        # Past the bound on all words held, the least recently used namespace goes.
        bounded = WordVectors(loader=loader, max_words=7)
        bounded.get(runtime.store, namespace)
        loader.run()
        bounded.get(runtime.store, other)
        loader.run()
        assert bounded.get(runtime.store, namespace) is None  # dropped for the other's words
        held_other = bounded.get(runtime.store, other)
        assert held_other is not None and set(held_other.words) == {"lunch", "sandwich"}
    finally:
        wipe(runtime.store, other)
