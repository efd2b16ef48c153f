"""The retrieval cascade on real engines: seeds, expansion, ranking rules, sessions, explain."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from hippograph.graph import clock, memories, transfer
from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import NewMemory, Source, to_iso
from hippograph.graph.recall import expand, rank, retrieval
from hippograph.graph.recall.candidates import Candidate
from hippograph.graph.recall.recipes import DEFAULT_CASCADE, SEEDS_ONLY
from hippograph.graph.runtime import Runtime
from hippograph.graph.store.revalidating import Lifetime
from hippograph.graph.store.store import vector as as_vector
from hippograph.graph.write import formation, writepath
from tests.conftest import wipe

CONVERSATION = [
    ("Jon", "I finally booked the flights for our trip."),
    ("Gina", "Where are you going?"),
    ("Jon", "Lisbon, for the dance festival in June."),
    ("Gina", "I have been practising salsa every evening."),
    ("Jon", "My bakery opened a second shop downtown."),
]


def remember(rt: Runtime, ns: str, *items: NewMemory) -> list[str]:
    return [
        r.memory.id
        for r in writepath.remember(rt.store, rt.embedder, ns, list(items), policy=rt.policy)
    ]


def converse(rt: Runtime, ns: str, lines: Sequence[tuple[str, str]] = CONVERSATION) -> list[str]:
    """``lines`` ((speaker, text)) as one session's turns, in order, linked as adjacent."""
    ids = remember(
        rt,
        ns,
        *[
            NewMemory(
                content=f"{who}: {text}", source=Source(session_id="s1", messages=f"D1:{i + 1}")
            )
            for i, (who, text) in enumerate(lines)
        ],
    )
    assert formation.link_adjacent(rt.store, ns) == len(lines) - 1
    return ids


def recall(rt: Runtime, ns: str, context: str, **kwargs: object) -> retrieval.RecallResult:
    config = kwargs.pop("config", DEFAULT_CASCADE)
    request = retrieval.RecallRequest(context=context, **kwargs)  # type: ignore[arg-type]
    return retrieval.recall(rt.store, rt.embedder, ns, request, config)  # type: ignore[arg-type]


def contents(result: retrieval.RecallResult) -> list[str]:
    return [i.memory.content for i in result.items]


def test_expansion_reaches_what_seeds_miss(any_runtime: Runtime, namespace: str) -> None:
    ids = converse(any_runtime, namespace)
    question = "what trip did Jon book flights for?"
    # Speaker seeds off: the question names Jon, whose three turns would all seed
    # (test_the_named_speaker_seeds_where_the_index_leaves_too_few).
    plain = recall(
        any_runtime, namespace, question, k=5, config=SEEDS_ONLY.changed(speaker_seeds=0)
    )
    # Context words off: with them the middle turn is a full-text seed itself, by the words of
    # the turn before it (tests/graph/write/test_context.py), and the path is one hop; this
    # test follows the two hops over adjacency.
    no_context = DEFAULT_CASCADE.changed(context_weight=0.0, speaker_seeds=0)
    full = recall(any_runtime, namespace, question, k=5, explain=True, config=no_context)
    # The answer is the reply to the matching turn: only the adjacency edge finds it.
    assert ids[2] not in [i.memory.id for i in plain.items]
    found = {i.memory.id: i.explanation for i in full.items}
    assert ids[2] in found
    e = found[ids[2]]
    assert e is not None and e.seed_kinds == ("expanded",) and e.seed == ids[0]
    assert [(s.from_id, s.to_id, s.type, s.via) for s in e.path] == [
        (ids[0], ids[1], "RELATES_TO", "adjacent"),
        (ids[1], ids[2], "RELATES_TO", "adjacent"),
    ]
    assert e.activation > 0


def test_hops_after_the_first_expand_at_most_later_frontier_memories(
    runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    converse(runtime, namespace)
    frontiers: list[list[str]] = []
    read = runtime.store.read

    def watched(name: str, /, **params: object) -> list[dict[str, object]]:
        if name == "recall/expand":
            frontiers.append(list(params["frontier"]))  # type: ignore[call-overload]
        return read(name, **params)

    monkeypatch.setattr(runtime.store, "read", watched)
    # A middle turn is the seed; the first hop reaches the turns either side of it.
    question = "the dance festival in Lisbon"
    second_hops = []
    for later_frontier in (DEFAULT_CASCADE.spread.later_frontier, 1):
        frontiers.clear()
        config = DEFAULT_CASCADE.changed(later_frontier=later_frontier)
        recall(runtime, namespace, question, k=5, config=config)
        assert len(frontiers) == config.spread.depth == 2
        second_hops.append(len(frontiers[1]))
    assert second_hops[0] > 1 and second_hops[1] == 1


def test_no_seed_above_the_floor_is_a_gap_that_answers_only_when_asked(
    runtime: Runtime, namespace: str
) -> None:
    converse(runtime, namespace)
    # Not "What did Jon book?": "booked the flights" answers that (the full-text side
    # searches the forms of a word).
    result = recall(runtime, namespace, "What did Jon cook?", k=3)
    assert result.gap and result.items == ()
    nearest = recall(runtime, namespace, "What did Jon cook?", k=3, include_gap=True)
    assert nearest.gap and len(nearest.items) == 3


def test_below_the_floor_the_nearest_memories_seed_beside_a_full_text_hit(
    runtime: Runtime, namespace: str
) -> None:
    """No vector hit clears the cosine floor and one memory shares a word with the context:
    the nearest memories are still seeds (before, that one full-text hit was the only seed
    and decided everything returned)."""
    texts = [
        "Election night: the county counted votes until 3 am",
        "I lean on my sister when work gets hard",
        "Bought a new bicycle bell",
    ]
    remember(runtime, namespace, *[NewMemory(content=t) for t in texts])
    context = "Which party would the voters lean towards?"
    query = runtime.embedder.embed([context])[0]
    cosines = runtime.embedder.embed(texts) @ query
    assert cosines.max() < DEFAULT_CASCADE.gather.min_seed_cosine  # the premise: nothing clears it
    result = recall(runtime, namespace, context, k=3, include_gap=True, explain=True)
    kinds = {i.memory.content: i.explanation.seed_kinds for i in result.items if i.explanation}
    assert "fulltext" in kinds[texts[1]]
    assert "vector" in kinds[texts[int(np.argmax(cosines))]]


def test_adjacency_linking_is_idempotent(runtime: Runtime, namespace: str) -> None:
    converse(runtime, namespace)
    assert formation.link_adjacent(runtime.store, namespace) == 0
    assert formation.turn_number("D12:7") == 7 and formation.turn_number("14-16") == 14


def test_speaker_tags_are_inferred_for_conversation_turns(runtime: Runtime, namespace: str) -> None:
    ids = converse(runtime, namespace)
    jon = memories.get(runtime.store, namespace, ids[0])
    assert "speaker:jon" in jon.tags


def test_explain_gives_components_and_paths(runtime: Runtime, namespace: str) -> None:
    converse(runtime, namespace)
    result = recall(runtime, namespace, "What dance does Gina practise?", k=3, explain=True)
    top = result.items[0]
    assert top.memory.content == "Gina: I have been practising salsa every evening."
    e = top.explanation
    assert e is not None
    assert "vector" in e.seed_kinds and e.path == ()
    assert e.speaker == 1.0  # the question names Gina, who said it
    assert 0 < e.relevance <= 1 and e.confidence == pytest.approx(0.9)
    assert e.length == 1.0  # a short memory: nothing discounted
    assert e.score == pytest.approx(
        (e.relevance + 0.6 * e.activation * e.length + 0.3 * e.speaker + 0.1 * e.time)
        * e.recency
        * e.confidence
        * (1 + 0.1 * e.importance)
    )
    assert result.embed_ms > 0 and result.total_ms >= result.embed_ms


def test_long_memories_have_their_full_text_and_activation_discounted(
    runtime: Runtime, namespace: str
) -> None:
    """A memory longer than the model reads matches many words by its length alone: its
    full-text part and the activation it gathers count for less; its cosine counts whole."""
    filler = " ".join(f"Step {i}: configure the gateway, restart the worker." for i in range(40))
    short, long = remember(
        runtime,
        namespace,
        NewMemory(content="Always include status codes when I ask about gateway errors."),
        NewMemory(content=f"Here is how to handle gateway errors. {filler}"),
    )
    assert len(filler) > 2 * DEFAULT_CASCADE.relevance.long_memory_chars
    result = recall(runtime, namespace, "gateway errors", k=2, explain=True)
    found = {i.memory.id: i.explanation for i in result.items}
    s, g = found[short], found[long]
    assert s is not None and g is not None
    assert s.length == 1.0
    chars = len(f"Here is how to handle gateway errors. {filler}")
    assert g.length == pytest.approx(1 / (1 + math.log(chars / 1000)))
    alpha = DEFAULT_CASCADE.relevance.alpha
    assert g.fulltext > 0 and s.fulltext > 0
    top_ft = max(s.fulltext, g.fulltext)
    # The full-text part has its own, stronger discount (fulltext_length_weight).
    weight = DEFAULT_CASCADE.relevance.fulltext_length_weight
    assert weight > DEFAULT_CASCADE.relevance.length_weight
    ft_factor = 1 / (1 + weight * math.log(chars / 1000))
    assert g.relevance == pytest.approx(
        alpha * g.cosine + (1 - alpha) * g.fulltext / top_ft * ft_factor
    )

    # At the activation's weight the long one's full-text part counts more; without either
    # factor it is whole.
    def explained(**weights: float) -> retrieval.Explanation:
        config = DEFAULT_CASCADE.changed(**weights)
        result = recall(runtime, namespace, "gateway errors", k=2, explain=True, config=config)
        e = {i.memory.id: i.explanation for i in result.items}[long]
        assert e is not None
        return e

    alike = explained(fulltext_length_weight=DEFAULT_CASCADE.relevance.length_weight)
    unweighted = explained(length_weight=0.0, fulltext_length_weight=0.0)
    assert unweighted.length == 1.0
    assert alike.relevance == pytest.approx(
        alpha * g.cosine + (1 - alpha) * g.fulltext / top_ft * g.length
    )
    assert g.relevance < alike.relevance < unweighted.relevance


def changes_jobs(rt: Runtime, ns: str) -> tuple[str, str]:
    """Priya's old job and her new one, the new superseding the old: (old id, new id)."""
    old, new = remember(
        rt,
        ns,
        NewMemory(content="Priya works at Google"),
        NewMemory(content="Priya joined Microsoft in 2024"),
    )
    memories.supersede(rt.store, ns, old, new, reason="job change")
    return old, new


def test_superseded_memory_is_replaced_by_its_successor(
    any_runtime: Runtime, namespace: str
) -> None:
    old, new = changes_jobs(any_runtime, namespace)
    result = recall(
        any_runtime,
        namespace,
        "Does Priya work at Google?",
        k=5,
        include_history=True,
        explain=True,
    )
    ids = [i.memory.id for i in result.items]
    assert new in ids and old not in ids
    item = result.items[ids.index(new)]
    assert [h.content for h in item.history] == ["Priya works at Google"]
    # The write path's decider may have recorded the change itself before the explicit call.
    assert item.history[0].reason


def test_a_superseded_memory_forgotten_later_still_gives_way_to_its_successor(
    runtime: Runtime, namespace: str
) -> None:
    old, new = changes_jobs(runtime, namespace)
    memories.forget(runtime.store, namespace, old)
    result = recall(
        runtime, namespace, "Does Priya work at Google?", include_archived=True, explain=True
    )
    [item] = [i for i in result.items if i.memory.id == new]
    # The archived seed gave way to its successor (it may still be reached by expansion: the
    # caller asked for archived memories).
    assert item.explanation is not None and "successor" in item.explanation.seed_kinds


def test_archived_memories_only_on_request(runtime: Runtime, namespace: str) -> None:
    [mid] = remember(runtime, namespace, NewMemory(content="The wifi password changed in March"))
    memories.forget(runtime.store, namespace, mid)
    assert recall(runtime, namespace, "wifi password change").items == ()
    assert [
        i.memory.id
        for i in recall(runtime, namespace, "wifi password change", include_archived=True).items
    ] == [mid]


def test_negative_rules_are_always_surfaced_and_flagged(
    any_runtime: Runtime, namespace: str
) -> None:
    remember(
        any_runtime,
        namespace,
        *[NewMemory(content=f"Release note {i}: improved the parser") for i in range(12)],
        NewMemory(
            content="Never force-push to the main branch",
            memory_type="negative",
            trigger_patterns=("re:git\\s+push", "force push"),
        ),
    )
    result = recall(any_runtime, namespace, "ok, now git push the parser improvements", k=3)
    assert result.items[0].flagged
    assert result.items[0].memory.content == "Never force-push to the main branch"
    assert len(result.items) == 4  # the rule comes on top of the k results
    quiet = recall(any_runtime, namespace, "summarise the parser release notes", k=3)
    assert not any(i.flagged for i in quiet.items)


def test_scope_visibility(runtime: Runtime, namespace: str) -> None:
    remember(
        runtime,
        namespace,
        NewMemory(content="Coffee machine is on floor 2"),
        NewMemory(content="Project atlas uses coffee-script", scope="project", project="atlas"),
        NewMemory(
            content="In this chat we talk about coffee beans", scope="session", session_id="chat-9"
        ),
    )
    assert sorted(contents(recall(runtime, namespace, "coffee"))) == [
        "Coffee machine is on floor 2"
    ]
    in_atlas = contents(recall(runtime, namespace, "coffee", project="atlas"))
    assert "Project atlas uses coffee-script" in in_atlas and len(in_atlas) == 2
    in_chat = contents(recall(runtime, namespace, "coffee", session_id="chat-9"))
    assert "In this chat we talk about coffee beans" in in_chat and len(in_chat) == 2


def test_namespace_isolation(runtime: Runtime, namespace: str) -> None:
    remember(runtime, namespace, NewMemory(content="Secret launch date is May 4"))
    assert recall(runtime, namespace + "-x", "launch date").items == ()


def test_fulltext_seeds_survive_other_namespaces_crowding_the_index(
    runtime: Runtime, namespace: str
) -> None:
    """The full-text index is shared and filtered after it: when other tenants fill its first
    answer, it is asked again for more instead of missing this namespace's hits."""
    crowd = namespace + "-crowd"
    subjects = ["tax forms", "garden hose", "piano tuner", "bike chain", "rain boots", "oven"]
    try:
        crowded = remember(
            runtime,
            crowd,
            *[NewMemory(content=f"Zebra zebra zebra: the {s} question") for s in subjects],
        )
        assert len(set(crowded)) > 2
        [mine] = remember(runtime, namespace, NewMemory(content="Our zoo keeps one zebra"))
        config = DEFAULT_CASCADE.changed(
            fulltext_hits=2, fulltext_oversample=1, fulltext_max_candidates=100
        )
        result = recall(runtime, namespace, "zebra", explain=True, config=config)
        [item] = [i for i in result.items if i.memory.id == mine]
        assert item.explanation is not None and "fulltext" in item.explanation.seed_kinds
        assert item.explanation.fulltext > 0
        assert all(i.memory.namespace == namespace for i in result.items)
    finally:
        wipe(runtime.store, crowd)


def test_session_does_not_repeat_itself_until_the_topic_changes(
    runtime: Runtime, namespace: str
) -> None:
    remember(
        runtime,
        namespace,
        *[
            NewMemory(content=f"Hiking tip {i}: carry {w}")
            for i, w in enumerate(["water", "a map", "a jacket", "snacks", "a torch", "sunscreen"])
        ],
    )
    first = recall(runtime, namespace, "tips for hiking", k=4, session_id="t1")
    second = recall(runtime, namespace, "more tips for hiking", k=4, session_id="t1")
    first_ids = [i.memory.id for i in first.items]
    second_ids = [i.memory.id for i in second.items]
    repeated = set(first_ids) & set(second_ids)
    assert len(repeated) <= DEFAULT_CASCADE.choose.resurface_top
    assert len(second_ids) == 4
    assert set(second_ids) - set(first_ids)  # something new was surfaced
    shifted = recall(runtime, namespace, "quarterly tax filing deadline", k=4, session_id="t1")
    assert shifted.topic_reset


def test_hub_tags_are_not_expanded(runtime: Runtime, namespace: str) -> None:
    remember(
        runtime,
        namespace,
        *[NewMemory(content=f"Status update number {i}", tags=("common",)) for i in range(15)],
    )
    result = recall(runtime, namespace, "status update number 3", k=10, explain=True)
    paths = [s for i in result.items if i.explanation for s in i.explanation.path]
    assert all(s.type != "HAS_TAG" for s in paths)


def test_gap_when_nothing_relevant(runtime: Runtime, namespace: str) -> None:
    remember(runtime, namespace, NewMemory(content="The cat is called Miso"))
    assert recall(runtime, namespace, "kubernetes ingress controller TLS certificates").gap
    assert not recall(runtime, namespace, "what is the cat called").gap


def test_bad_requests(runtime: Runtime, namespace: str) -> None:
    with pytest.raises(InvalidInput) as err:
        recall(runtime, namespace, "  ")
    assert err.value.field == "context"
    with pytest.raises(InvalidInput) as err:
        recall(runtime, namespace, "x", k=10_000)
    assert err.value.field == "k"
    with pytest.raises(InvalidInput) as err:
        recall(runtime, namespace, "x", memory_types=("rumour",))
    assert err.value.field == "memoryTypes[0]"


def test_query_words_are_sanitized() -> None:
    words = retrieval.query_words('What did "Caroline" do: (AND) OR* ~2 \\ /? Caroline')
    assert words == ["caroline"]
    assert retrieval.query_words("the and of") == []


def test_an_expired_namespace_count_is_refreshed_off_the_query_path(
    runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recall scales tag rarity by the namespace's size, recounted once the count expires (it
    is kept in proportion to what it cost): an expired count is still answered while a fresh
    one is counted in the background."""
    remember(runtime, namespace, NewMemory(content="Ana plays the oboe"))
    assert expand.active_count(runtime.caches, runtime.store, namespace) == 1
    remember(runtime, namespace, NewMemory(content="Cy tunes pianos"))
    assert expand.active_count(runtime.caches, runtime.store, namespace) == 1  # not expired: kept
    sizes = runtime.caches.sizes
    monkeypatch.setattr(sizes, "_lifetime", Lifetime(0.0, 0.0, sizes._lifetime.max_s))
    sizes._values[(runtime.store, namespace)] = (0.0, 1)  # expire it
    remember(runtime, namespace, NewMemory(content="Ben repairs old clocks"))
    assert expand.active_count(runtime.caches, runtime.store, namespace) == 1  # stale, refreshing
    for _ in range(100):
        if expand.active_count(runtime.caches, runtime.store, namespace) == 3:
            break
        time.sleep(0.05)
    assert expand.active_count(runtime.caches, runtime.store, namespace) == 3


def test_recall_upkeep_is_written_together_when_flushed(runtime: Runtime, namespace: str) -> None:
    """Post-retrieval maintenance waits (up to its interval) and is then written for all the
    queued recalls at once; past its bound new recalls are dropped and counted. What it writes
    is what was returned, counted for diagnostics: no use, no link (being returned is not
    being used)."""
    from hippograph.graph.runtime import Background, RecallUpkeep
    from tests.jobs.conftest import edges, memory_props

    remember(
        runtime, namespace,
        NewMemory(content="Lina plays the cello"),
        NewMemory(content="Lina has a cello recital on Friday"),
        NewMemory(content="Omar bought Lina a new cello bow"),
    )  # fmt: skip
    result = retrieval.recall(
        runtime.store, runtime.embedder, namespace, retrieval.RecallRequest(context="Lina cello")
    )
    top = [item.memory.id for item in result.items][:3]
    assert len(top) == 3
    background = Background()
    try:
        upkeep = RecallUpkeep(runtime.store, background, interval_s=60, max_pending=2)
        for _ in range(3):
            upkeep.add(namespace, "Lina cello", result)
        assert upkeep.dropped == 1
        props = memory_props(runtime.store, namespace)
        assert [props[i].get("returned_count") for i in top] == [None] * 3, "not before the flush"
        upkeep.flush()
    finally:
        background.close()
    assert edges(runtime.store, namespace) == {}
    props = memory_props(runtime.store, namespace)
    assert [props[i]["returned_count"] for i in top] == [2, 2, 2]
    assert [props[i]["access_count"] for i in top] == [0, 0, 0]

    background = Background()
    try:  # a full batch is written without waiting for the interval
        upkeep = RecallUpkeep(runtime.store, background, interval_s=60, batch=2)
        upkeep.add(namespace, "Lina cello", result)
        upkeep.add(namespace, "Lina cello", result)
        background.drain()
    finally:
        background.close()
    props = memory_props(runtime.store, namespace)
    assert [props[i]["returned_count"] for i in top] == [4, 4, 4]


FEEDBACK_MEMORIES = [
    "Simmered a tomato sauce with garlic for the pasta tonight.",
    "Baked sourdough bread with a crunchy crust this morning.",
    "The risotto needs constant stirring and warm stock.",
    "Grilled vegetables on the barbecue for the family dinner.",
    "Hiked up the ridge trail and saw the glacier at sunrise.",
    "Camped by the alpine lake after a long mountain climb.",
    "My boots got soaked crossing the river on the trek.",
    "Packed a stove and dried meals for the three-day hike.",
    "Refactored the parser module and the unit tests pass again.",
    "The deployment failed because the database migration timed out.",
    "Practised the piano sonata slowly with a metronome.",
    "The choir rehearsal ran late before the winter concert.",
]


def test_feedback_scores_with_the_moved_query_and_searches_again_only_when_asked(
    any_runtime: Runtime, namespace: str
) -> None:
    """Pseudo-relevance feedback, checked against numpy on the stored embeddings: the query
    moves toward its prf_depth best hits and the moved vector scores every candidate. The
    vector seeds are the first search's hits re-ranked (and held to the cosine floor) by their
    cosine to the moved query, unless prf_search, which searches the index again with it."""
    ids = remember(any_runtime, namespace, *[NewMemory(content=t) for t in FEEDBACK_MEMORIES])
    stored = {
        r["props"]["id"]: np.asarray(r["props"]["embedding"], dtype=np.float64)
        for r in transfer.export_lines(any_runtime.store, namespace)
        if r["kind"] == "memory"
    }
    assert sorted(stored) == sorted(ids)
    matrix = np.stack([stored[i] for i in ids])
    context = "cooking a warm dinner on a camping stove after a long mountain hike"
    config = DEFAULT_CASCADE.changed(
        alpha=1.0,  # relevance is the cosine: the feedback's choice is numpy's
        fulltext_hits=0,
        fulltext_seeds=0,
        depth=0,
        vector_seeds=4,
        min_seed_cosine=-1.0,
        prf_weight=1.0,
        prf_depth=2,
    )
    query = any_runtime.embedder.embed([context])[0].astype(np.float64)
    first = matrix @ query
    moved = query + 1.0 * matrix[np.argsort(-first)[:2]].mean(axis=0)
    moved /= np.linalg.norm(moved)
    second = matrix @ moved
    hits = np.argsort(-first)[:4]  # what the first search returns
    top_second = {ids[i] for i in np.argsort(-second)[:4]}
    assert {ids[i] for i in hits} != top_second  # premise: a second search finds another seed
    # A floor between the hits' lowest cosines to the query and to the moved query: the one
    # that counts lets a different set of them through.
    floor = float(first[hits].min() + second[hits].min()) / 2
    above_moved = {ids[i] for i in hits if second[i] >= floor}
    assert above_moved != {ids[i] for i in hits if first[i] >= floor}  # premise

    for prf_search, min_seed_cosine, expected in (
        (False, -1.0, {ids[i] for i in hits}),
        (False, floor, above_moved),
        (True, -1.0, top_second),
    ):
        result = recall(
            any_runtime,
            namespace,
            context,
            k=10,
            explain=True,
            config=config.changed(prf_search=prf_search, min_seed_cosine=min_seed_cosine),
        )
        seeds = {
            i.memory.id: i.explanation
            for i in result.items
            if i.explanation and "vector" in i.explanation.seed_kinds
        }
        assert set(seeds) == expected, (prf_search, min_seed_cosine)
        for memory_id, explanation in seeds.items():
            assert explanation is not None
            assert explanation.cosine == pytest.approx(float(stored[memory_id] @ moved), abs=1e-4)


def bees(rt: Runtime, ns: str) -> tuple[str, str, np.ndarray]:
    """Two memories of Ada's bees, and the query vector of "Ada's bees"."""
    a, b = remember(
        rt,
        ns,
        NewMemory(content="Ada keeps bees on the roof."),
        NewMemory(content="Ada's hives gave honey in August."),
    )
    return a, b, rt.embedder.embed(["Ada's bees"])[0]


def test_memories_are_looked_up_by_element_id_and_checked_by_id(
    any_runtime: Runtime, namespace: str
) -> None:
    """Recall's statements find a memory by its element id (direct) and keep it only if its id
    matches: a deleted node's element id can be reused by another node."""
    a, b, query = bees(any_runtime, namespace)
    rows = any_runtime.store.read(
        "recall/vector_seeds_exact",
        namespace=namespace,
        statuses=["active"],
        embedding=as_vector(query),
        k=10,
        scopes=["global"],
        as_of=None,
    )
    eids = {r["id"]: r["eid"] for r in rows}
    assert set(eids) == {a, b} and eids[a] != eids[b]
    params = {"namespace": namespace, "embedding": as_vector(query)}

    def scored(pairs: list[list[str]]) -> list[str]:
        found = any_runtime.store.read("recall/scores", ids=pairs, with_speakers=False, **params)
        return [hit[0] for hit in found[0]["rows"]]

    def fetched(pairs: list[list[str]]) -> list[str]:
        return [
            r["memory"]["id"]
            for r in any_runtime.store.read("recall/candidates", ids=pairs, **params)
        ]

    for read in (scored, fetched):
        assert sorted(read([[eids[a], a], [eids[b], b]])) == sorted([a, b])
        assert read([[eids[a], b]]) == []  # b's id at a's element id: not b, not a
        assert read([[eids[b], a]]) == []


def test_seeds_and_feedback_without_full_text_hits_answer_the_vector_hits(
    any_runtime: Runtime, namespace: str
) -> None:
    """A query whose full text finds nothing ($fulltext empty): the combined statement answers
    the vector hits, and its pool is those hits. It looks no memory up by a null element id:
    on the embedded engine that scanned every node (0.5-0.8 s a recall at 100,000 memories)."""
    a, b, query = bees(any_runtime, namespace)
    common = {
        "namespace": namespace, "statuses": ["active"], "embedding": as_vector(query),
        "scopes": ["global"], "as_of": None, "alpha": 0.7, "depth": 1, "k": 2,
        "speaker": None, "speaker_k": 0,
    }  # fmt: skip
    rows = any_runtime.store.read("recall/vector_feedback", candidates=100, fulltext=[], **common)
    assert len(rows) == 1
    near = {n[0] for n in rows[0]["near"]}
    assert near == {a, b}
    assert {h[0] for h in rows[0]["hits"]} == near
    assert len(rows[0]["embeddings"]) == 1
    # With one of them a full-text hit, the pool is the same two, the full-text one first
    # (its relevance is the larger by its full-text part).
    eid = {n[0]: n[1] for n in rows[0]["near"]}
    with_ft = any_runtime.store.read(
        "recall/vector_feedback",
        candidates=100,
        fulltext=[{"id": b, "eid": eid[b], "ft": 1.0}],
        **common,
    )
    assert [h[0] for h in with_ft[0]["hits"]][0] == b
    assert {h[0] for h in with_ft[0]["hits"]} == {a, b}


PROJECT_CHAT = [
    ("User", "I am building a weather app with Flask, due by the end of March."),
    (
        "Assistant",
        "Great choice. For a Flask weather app, start with a small project layout: an app "
        "factory, a blueprint for the forecast pages and a client module for the weather API. "
        "Cache the API's answers for a few minutes so that a burst of page loads does not hit "
        "its rate limit, and retry failed calls with exponential backoff. Keep the API key in "
        "an environment variable, never in the code. Write tests for the client first, with "
        "recorded answers, then for the views. Deploy once the forecast page works end to end.",
    ),
    ("User", "I prefer pytest over unittest for the tests."),
    (
        "Assistant",
        "Pytest suits this well: fixtures give each test a fresh app and a test client, "
        "parametrize covers the cities and units you support, and the recorded API answers "
        "can live in a conftest fixture. Run the suite on every push with a small CI job, and "
        "measure coverage so that the client's error paths are exercised too. Mark the slow "
        "end-to-end tests so that they can be skipped while you iterate on the views.",
    ),
]


def test_activation_into_a_restating_speaker_counts_for_less(
    runtime: Runtime, namespace: str
) -> None:
    """Where one speaker's memories run far longer than another's (an assistant's answers
    beside a person's messages), the activation they receive from their neighbours is
    discounted: the answers restate what the person said. Their own relevance counts whole."""
    ids = converse(runtime, namespace, PROJECT_CHAT)
    result = recall(runtime, namespace, "Which test framework do I like?", k=4, explain=True)
    found = {i.memory.id: i.explanation for i in result.items}
    assert set(found) == set(ids)
    factor = DEFAULT_CASCADE.score.restating_activation
    for memory_id, (who, _) in zip(ids, PROJECT_CHAT, strict=True):
        e = found[memory_id]
        assert e is not None
        assert e.restated == (factor if who == "Assistant" else 1.0)
        assert e.score == pytest.approx(
            (e.relevance + 0.6 * e.activation * e.length * e.restated + 0.1 * e.time)
            * e.recency
            * e.confidence
            * (1 + 0.1 * e.importance)
        )
    # The answers did receive activation (from the messages they follow and precede).
    assert any(e is not None and e.activation > 0 for e in (found[i] for i in ids[1::2]))
    # Without the discount the answers keep the activation they receive.
    plain = recall(
        runtime, namespace, "Which test framework do I like?", k=4, explain=True,
        config=DEFAULT_CASCADE.changed(restating_activation=1.0),
    )  # fmt: skip
    assert all(i.explanation is not None and i.explanation.restated == 1.0 for i in plain.items)


def test_a_question_about_what_you_said_points_at_the_restating_speaker(
    runtime: Runtime, namespace: str
) -> None:
    """In a person's chat with an assistant, "How did you recommend ...?" asks about the
    assistant's answers: they get addressee_weight, the person's messages nothing. A request
    ("What would you suggest ...?") is not a question about what was said."""
    ids = converse(runtime, namespace, PROJECT_CHAT)
    weight = DEFAULT_CASCADE.score.addressee_weight
    assert weight > 0
    asked = "How did you recommend handling the weather API's rate limit?"
    result = recall(runtime, namespace, asked, k=4, explain=True)
    found = {i.memory.id: i.explanation for i in result.items}
    assert set(found) == set(ids)
    for memory_id, (who, _) in zip(ids, PROJECT_CHAT, strict=True):
        e = found[memory_id]
        assert e is not None
        assert e.addressee == (weight if who == "Assistant" else 0.0)
        assert e.score == pytest.approx(
            (e.relevance + 0.6 * e.activation * e.length * e.restated + e.addressee + 0.1 * e.time)
            * e.recency
            * e.confidence
            * (1 + 0.1 * e.importance)
        )
    # The answer that holds the advice comes first, ahead of the message it answers, which
    # leads without the cue (it shares the question's words and takes the answer's activation).
    assert result.items[0].memory.id == ids[1]
    plain = recall(
        runtime, namespace, asked, k=4, config=DEFAULT_CASCADE.changed(addressee_weight=0.0)
    )
    assert plain.items[0].memory.id == ids[0]
    for context, config in (
        ("What would you suggest for the weather API's rate limit?", DEFAULT_CASCADE),
        (asked, DEFAULT_CASCADE.changed(addressee_weight=0.0)),
        # A speaker named: the speaker cue, not "you", says whose turns count.
        ("How did you recommend the User handle the rate limit?", DEFAULT_CASCADE),
    ):
        other = recall(runtime, namespace, context, k=4, explain=True, config=config)
        assert len(other.items) == 4
        assert all(i.explanation is not None and i.explanation.addressee == 0 for i in other.items)


def test_without_a_restating_speaker_you_names_no_one(runtime: Runtime, namespace: str) -> None:
    """Between speakers who talk alike "you" could be either of them: no addressee."""
    converse(runtime, namespace)
    result = recall(runtime, namespace, "What did you recommend for the trip?", k=5, explain=True)
    assert result.items
    assert all(i.explanation is not None and i.explanation.addressee == 0 for i in result.items)


def test_speakers_who_talk_alike_are_not_restating(runtime: Runtime, namespace: str) -> None:
    converse(runtime, namespace)
    result = recall(runtime, namespace, "Where is Jon travelling?", k=5, explain=True)
    assert result.items
    assert all(i.explanation is not None and i.explanation.restated == 1.0 for i in result.items)


def reads_of(rt: Runtime, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the statements ``rt``'s store reads from now on (the reads still run)."""
    asked: list[str] = []
    read = rt.store.read

    def recorded(name: str, /, **params: object) -> list[dict[str, object]]:
        asked.append(name)
        return read(name, **params)

    monkeypatch.setattr(rt.store, "read", recorded)
    return asked


def test_a_namespace_the_index_leaves_too_few_of_is_scanned_exactly_once(
    runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shared vector index leaves fewer than k memories of a small namespace: the combined
    seeds-and-feedback statement tells so, and the exact scan follows without asking the
    index again."""
    a, b, _ = bees(runtime, namespace)
    asked = reads_of(runtime, monkeypatch)
    result = retrieval.recall(
        runtime.store, runtime.embedder, namespace, retrieval.RecallRequest(context="Ada's bees")
    )
    assert {i.memory.id for i in result.items} == {a, b}
    vector_reads = [n for n in asked if n.startswith("recall/vector")]
    assert vector_reads == ["recall/vector_feedback", "recall/vector_seeds_exact"]


# Gina talks about cooking a lot; Jon once, in words the question does not use.
COOKING = [
    ("Gina", "I love cooking pasta with fresh basil from the garden."),
    ("Gina", "Cooking curry on Sundays is my favourite ritual."),
    ("Gina", "I cooked a big pot of chili for the neighbours."),
    ("Gina", "My cooking class taught me how to fold dumplings."),
    ("Gina", "Baking sourdough bread takes me all weekend."),
    ("Gina", "I enjoy cooking risotto, it needs patience."),
    ("Gina", "Roasting vegetables in the oven is the easiest dinner."),
    ("Gina", "I made lasagna for my sister's birthday dinner."),
    ("Gina", "Cooking soup in winter keeps the house warm."),
    ("Gina", "I tried a new recipe for pancakes this morning."),
    ("Gina", "Stir-fried noodles are what I cook after a long shift."),
    ("Gina", "I love cooking tacos for friends on Friday nights."),
    ("Gina", "Cooking fish stew reminds me of my grandmother."),
    ("Gina", "I enjoy cooking steak, medium rare, with garlic butter."),
    ("Gina", "Cooking omelettes is the first thing I learned."),
    ("Gina", "I cook paella whenever my cousins visit."),
    ("Gina", "Cooking ramen from scratch took me two days."),
    ("Gina", "I enjoy cooking with my kids on rainy afternoons."),
    ("Gina", "Cooking shrimp skewers is my summer favourite."),
    ("Gina", "I cook a roast chicken every Sunday evening."),
    ("Gina", "Cooking dal and rice is my comfort food."),
    ("Gina", "I enjoy cooking grilled vegetables on the barbecue."),
    ("Jon", "Grilling salmon over charcoal, honestly the best thing ever."),
]


def test_the_named_speakers_nearest_memories_seed_too(runtime: Runtime, namespace: str) -> None:
    """A question naming one speaker also seeds from the nearest memories that speaker said
    among the vector index's hits: Jon's one turn about food, nearer to the question than
    none of Gina's many, is found although neither search nor expansion would reach it."""
    # Each turn a session of its own: no adjacency leads from Gina's turns to Jon's.
    ids = remember(
        runtime,
        namespace,
        *[
            NewMemory(content=f"{who}: {text}", source=Source(session_id=f"s{i}", messages="D1:1"))
            for i, (who, text) in enumerate(COOKING)
        ],
    )
    question = "What does Jon enjoy cooking?"
    without = recall(
        runtime, namespace, question, k=5, config=DEFAULT_CASCADE.changed(speaker_seeds=0)
    )
    assert ids[-1] not in [i.memory.id for i in without.items]
    result = recall(runtime, namespace, question, k=5, explain=True)
    found = {i.memory.id: i.explanation for i in result.items}
    assert ids[-1] in found
    e = found[ids[-1]]
    assert e is not None and "speaker" in e.seed_kinds and e.speaker == 1.0
    # Nobody named, nobody's memories seed apart.
    plain = recall(runtime, namespace, "What does someone enjoy cooking?", k=13, explain=True)
    assert all(i.explanation is not None and "speaker" not in i.explanation.seed_kinds
               for i in plain.items)  # fmt: skip


def test_the_named_speaker_seeds_where_the_index_leaves_too_few(
    runtime: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A namespace the shared vector index leaves too few of is scanned exactly: the named
    speaker's nearest memories are then found by a scan of that speaker's memories, and seed
    as they do from the index's hits."""
    turns = [*COOKING[:6], COOKING[-1]]  # fewer than the vector seeds: the exact path
    ids = remember(
        runtime,
        namespace,
        *[
            NewMemory(content=f"{who}: {text}", source=Source(session_id=f"s{i}", messages="D1:1"))
            for i, (who, text) in enumerate(turns)
        ],
    )
    asked = reads_of(runtime, monkeypatch)
    result = recall(runtime, namespace, "What does Jon enjoy cooking?", k=7, explain=True)
    assert "recall/vector_seeds_exact" in asked and "recall/speaker_seeds_exact" in asked
    found = {i.memory.id: i.explanation for i in result.items}
    jon = found[ids[-1]]
    assert jon is not None and "speaker" in jon.seed_kinds
    # only Jon's memory is a speaker seed: Gina's are not Jon's
    assert all(e is not None and "speaker" not in e.seed_kinds
               for i, e in found.items() if i != ids[-1])  # fmt: skip
    asked.clear()
    recall(runtime, namespace, "What does someone enjoy cooking?", k=7)
    assert "recall/vector_seeds_exact" in asked and "recall/speaker_seeds_exact" not in asked


# Learned first: the bird log; learned a day later: many notes nearer to the question.
EARLY = ["wren", "robin", "heron", "kestrel", "swift", "plover", "curlew", "linnet"]
LATER = [
    "osprey",
    "buzzard",
    "red kite",
    "goshawk",
    "merlin",
    "hobby",
    "harrier",
    "peregrine",
    "sparrowhawk",
    "eagle",
    "barn owl",
    "tawny owl",
    "little owl",
    "kite",
    "condor",
    "vulture",
    "falcon",
    "lanner",
    "saker",
    "gyrfalcon",
]


def test_recall_as_of_a_past_time_seeds_from_what_was_current_then(
    runtime: Runtime, namespace: str
) -> None:
    """Memories learned after the asOf time, nearer to the question than any current then,
    no longer fill the seeds and leave fewer than k: the recall answers k memories, each one
    learned by then."""
    t0 = datetime(2031, 3, 1, tzinfo=UTC)
    try:
        with clock.frozen(t0):
            early = remember(runtime, namespace, *[
                NewMemory(content=f"Bird log: Sam spotted a {b} by the lake") for b in EARLY
            ])  # fmt: skip
        with clock.frozen(t0 + timedelta(days=1)):
            later = remember(runtime, namespace, *[
                NewMemory(content=f"Sam watched a {b} hunting over the lake birds today")
                for b in LATER
            ])  # fmt: skip
    finally:
        clock.set_now(None)
    # near-duplicates among the later notes are merged: enough of them remain to fill the seeds
    assert len(set(early)) == len(EARLY) and len(set(later)) > max(
        DEFAULT_CASCADE.gather.vector_seeds, 12
    )
    question = "Which birds did Sam watch at the lake?"
    now = recall(runtime, namespace, question, k=5)
    assert len(now.items) == 5 and {i.memory.id for i in now.items} <= set(later)
    then = recall(runtime, namespace, question, k=5, as_of=to_iso(t0 + timedelta(hours=12)))
    assert len(then.items) == 5
    assert {i.memory.id for i in then.items} <= set(early)
    # search (plain vector top-k) likewise: 3 asked, more than 4 x 3 later ones nearer
    searched = memories.search(
        runtime.store, runtime.embedder, namespace, question, 3,
        as_of=to_iso(t0 + timedelta(hours=12)),
    )  # fmt: skip
    assert len(searched) == 3 and {s.memory.id for s in searched} <= set(early)


def test_a_memory_that_asks_a_question_ranks_a_little_lower(
    runtime: Runtime, namespace: str
) -> None:
    """A memory whose content ends in a question mark (the engine reads it with the ranking
    fields, expanded memories and seeds alike) has CascadeConfig.score.question_discount taken off
    its score; a memory that states something keeps its score."""
    ids = converse(runtime, namespace)
    context = "Where is Jon going on his trip?"
    result = recall(runtime, namespace, context, k=5, explain=True)
    found = {i.memory.id: i.explanation for i in result.items}
    plain = recall(
        runtime, namespace, context, k=5, explain=True,
        config=DEFAULT_CASCADE.changed(question_discount=0.0),
    )  # fmt: skip
    before = {i.memory.id: i.explanation for i in plain.items}
    assert set(found) == set(before) == set(ids)
    discount = DEFAULT_CASCADE.score.question_discount
    assert discount > 0
    for memory_id, (_, text) in zip(ids, CONVERSATION, strict=True):
        e, b = found[memory_id], before[memory_id]
        assert e is not None and b is not None
        asks = text.endswith("?")
        assert e.asks == (discount if asks else 0.0)
        assert b.asks == 0.0
        multiplier = e.recency * e.confidence * (1 + 0.1 * e.importance)
        assert e.score == pytest.approx(b.score - (discount * multiplier if asks else 0.0))
    # "Gina: Where are you going?" asks; nothing else in the conversation does.
    asked = [i for i in ids if (e := found[i]) is not None and e.asks > 0]
    assert asked == [ids[1]]


TUTORING_CHAT = [
    ("User", "I'm Craig and I work as a colour technologist at a paint factory."),
    (
        "Assistant",
        "As you mentioned, conditional probability asks how likely one event is once another "
        "has happened.",
    ),
    ("User", "You said the deck has 52 cards, so I drew two hearts in a row."),
    (
        "Assistant",
        "As I mentioned before, the second draw depends on the first when you do not replace "
        "the card.",
    ),
    ("User", "I told my friend that I finally understand the dice problems."),
    (
        "Assistant",
        "You mentioned that the sample space for two dice has 36 outcomes, which is right.",
    ),
]


def test_the_frame_that_reports_a_turn_is_not_searched(runtime: Runtime, namespace: str) -> None:
    """Asked "What profession did I mention I work in?", "did I mention" says how the fact came up.
    Searched, it matches every turn that reports something ("As you mentioned, ..."), which
    then crowd the answer; taken out (CascadeConfig.cues.unframe), the answer leads clearly."""
    ids = converse(runtime, namespace, TUTORING_CHAT)
    asked = "What profession did I mention I work in?"
    assert DEFAULT_CASCADE.cues.unframe
    result = recall(runtime, namespace, asked, k=6, explain=True)
    framed = recall(
        runtime, namespace, asked, k=6, explain=True,
        config=DEFAULT_CASCADE.changed(unframe=False),
    )  # fmt: skip
    for found in (result, framed):
        assert {i.memory.id for i in found.items} == set(ids)
        assert found.items[0].memory.id == ids[0]
    reporting = set(ids[1:])  # every other turn reports what somebody said
    explained = {i.memory.id: i.explanation for i in result.items}
    assert all(e is not None and e.fulltext == 0 for i, e in explained.items() if i in reporting)
    explained = {i.memory.id: i.explanation for i in framed.items}
    assert all(e is not None and e.fulltext > 0 for i, e in explained.items() if i in reporting)
    # The answer's lead over the next memory: small with the frame searched, clear without it.
    lead = result.items[0].score - result.items[1].score
    framed_lead = framed.items[0].score - framed.items[1].score
    assert lead > 0.1 > framed_lead


def _scored(memory_id: str, score: float, direct: float) -> rank.Scored:
    zero = dict.fromkeys(
        ("cosine", "fulltext", "relevance", "speaker", "time", "importance", "asks", "addressee"),
        0.0,
    )
    return rank.Scored(
        id=memory_id, score=score, direct=direct, candidate=Candidate(id=memory_id),
        recency=1.0, confidence=1.0, length=1.0, restated=1.0, **zero,
    )  # fmt: skip


def test_the_best_direct_matches_are_kept_in_the_top_k() -> None:
    """Activation may reorder the top k, not push out the `anchors` candidates the question
    itself matches best: each such candidate below k takes the place of the last of the top k,
    the order of the rest kept."""
    # a..f by score; f is the best direct match, e the second, c the third.
    directs = {"a": 0.3, "b": 0.2, "c": 0.5, "d": 0.1, "e": 0.6, "f": 0.9}
    ranked = [_scored(i, 1.0 - n / 10, directs[i]) for n, i in enumerate("abcdef")]

    def ids(k: int, anchors: int) -> str:
        return "".join(r.id for r in rank.kept(ranked, k, rank.anchors(ranked, k, anchors)))

    assert ids(3, 0) == "abcdef"
    assert ids(3, 1) == "abfcde"
    assert ids(3, 2) == "aefbcd"
    # c is an anchor already in the top 3: the two that enter take the others' places.
    assert ids(3, 3) == "cefabd"
    assert ids(5, 2) == "abcefd"
    assert ids(6, 2) == "abcdef"  # all of them fit in k


def test_recall_keeps_the_best_direct_matches_in_the_top_k(
    runtime: Runtime, namespace: str
) -> None:
    """On the real cascade: whatever the activation, the `anchors` memories of best score
    without it are among the k returned. Here Gina's salsa, lifted by its neighbour (Jon's
    festival), would push Jon's booked flights out of the top 2."""
    converse(runtime, namespace, [*CONVERSATION, *PROJECT_CHAT, *TUTORING_CHAT])
    context = "Where is Jon going for the dance festival?"
    k, anchors = 2, DEFAULT_CASCADE.choose.anchors
    assert anchors == 2
    everything = recall(runtime, namespace, context, k=20, explain=True)
    assert len(everything.items) > k
    # A memory's score without the activation it received, as rank computes it.
    direct = {
        i.memory.id: i.explanation.score - 0.6 * i.explanation.activation * i.explanation.length
        * i.explanation.restated * i.explanation.recency * i.explanation.confidence
        * (1 + 0.1 * i.explanation.importance)
        for i in everything.items
        if i.explanation is not None
    }  # fmt: skip
    best = sorted(direct, key=lambda i: -direct[i])[:anchors]
    top = recall(runtime, namespace, context, k=k)
    assert {i.memory.id for i in top.items} == set(best)
    by_content = {i.memory.id: i.memory.content for i in everything.items}
    assert {by_content[i] for i in best} == {
        "Jon: Lisbon, for the dance festival in June.",
        "Jon: I finally booked the flights for our trip.",
    }
    unanchored = recall(runtime, namespace, context, k=k, config=DEFAULT_CASCADE.changed(anchors=0))
    assert [i.memory.content for i in unanchored.items] == [
        "Jon: Lisbon, for the dance festival in June.",
        "Gina: I have been practising salsa every evening.",
    ]
