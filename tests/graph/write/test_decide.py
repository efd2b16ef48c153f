"""One decision path: the offline rules, the LLM decider against a real local HTTP server that
speaks the OpenAI chat-completions API, and remember/extraction routed through both."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator

import numpy as np
import pytest

from hippograph.graph import history, memories
from hippograph.graph.model import NewMemory, Source
from hippograph.graph.models.llm import ChatClient, LLMConfig
from hippograph.graph.runtime import Runtime
from hippograph.graph.text.statements import clashes, contradicts, subject
from hippograph.graph.write import neighbours, plan, writepath
from hippograph.graph.write.decide import (
    Candidate,
    LLMDecider,
    Neighbour,
    OfflineDecider,
)
from hippograph.graph.write.writepath import commit
from tests.graph.llm_server import Endpoint, serve
from tests.graph.log_fixtures import active, every, log_runtime, remember


@pytest.fixture
def rt(runtime: Runtime, namespace: str) -> Iterator[Runtime]:
    yield from log_runtime(runtime, namespace)


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    yield from serve()


# Two plans an assistant gave for one project, a week apart (about 70 words each).
PLAN_A = (
    "Here is a plan for your personal statement. March 15: write the first draft, covering "
    "your background, your experience in production and your goals. March 25: review the "
    "draft and ask Tanya for feedback. April 5: finish the second draft and edit it for the "
    "scholarship and the visa application. April 15: final review. April 20: submit the "
    "scholarship application, then the visa application a week later. Skip the optional "
    "essay if time runs short."
)
PLAN_B = (
    "Actually, let's plan the personal statement around the deadlines. March 15: start the "
    "first draft with your background, your experience in production and your goals. March "
    "25: review the draft and ask Tanya and Bryan for feedback. April 5: finish the second "
    "draft for the scholarship and the visa application. April 15: final review. April 20: "
    "submit the scholarship application, the visa application a week later."
)


def n(id: str, content: str, cosine: float, memory_type: str = "fact") -> Neighbour:
    return Neighbour(
        id=id, content=content, memory_type=memory_type, cosine=cosine, overlap=0.5,
        created_at="2024-01-01T00:00:00.000000Z", updated_at="2024-01-01T00:00:00.000000Z",
    )  # fmt: skip


def c(content: str, provenance: str = "user_stated", memory_type: str = "fact") -> Candidate:
    return Candidate(content=content, memory_type=memory_type, provenance=provenance)


# ---------------------------------------------------------------- offline rules


@pytest.mark.parametrize(
    ("content", "neighbour", "cosine", "action"),
    [
        ("Ana likes using dark mode", "Ana prefers dark mode", 0.95, "NOOP"),
        ("Ana likes using dark mode", "Ana prefers dark mode", 0.90, "ADD"),
        ("Actually, my manager is John Smith, not Jon", "My manager is Jon Smith", 0.86, "UPDATE"),
        ("Actually, the deploy is on Tuesday", "Sam likes tea", 0.40, "ADD"),
        ("Sam now works at Microsoft", "Sam works at Google", 0.74, "SUPERSEDE"),
        ("Sam moved to Berlin", "Sam lives in Paris", 0.64, "SUPERSEDE"),
        ("Ana now works at Microsoft", "Sam works at Google", 0.70, "ADD"),  # other subject
        ("Ana doesn't like coffee", "Ana likes coffee", 0.93, "CONTRADICT"),
        ("Ana doesn't like coffee", "Ana likes coffee", 0.80, "ADD"),
        ("Caroline: I don't love hiking anymore", "Caroline: I love hiking.", 0.90, "CONTRADICT"),
        # A negation elsewhere in a very close turn is no contradiction (found by
        # bench/lifecycle.py: consolidation then superseded the older turn, gold evidence).
        (
            "Caroline: Hey Mel, what's up? Been a busy week since we talked.",
            "Caroline: Hey Mel! Long time no talk. Lots has been going on since then!",
            0.91,
            "ADD",
        ),
        (
            "Caroline: I'm putting together an LGBTQ art show next month and I'm gonna show my "
            "paintings. Super stoked!",
            "Caroline: Yay! Next month I'm having an LGBTQ art show with my paintings - "
            "can't wait!",
            0.96,
            "ADD",
        ),
        (
            "Caroline: Yeah, Mel! Life's all about creating memories. Can't wait for the trip!",
            "Caroline: Sounds great, Mel! We'll make some awesome memories!",
            0.88,
            "ADD",
        ),
        ("Melanie loves painting", "Melanie loves hiking", 0.63, "ADD"),
        ("Sam works at Microsoft", "Sam works at Google", 0.80, "ADD"),  # no cue: two jobs?
        ("Sam no longer works at Google", "Sam works at Google", 0.80, "SUPERSEDE"),
        ("Ana moved from Boston to Denver", "Ana lives in Boston", 0.70, "SUPERSEDE"),
        ("Ana's sister moved to Denver", "Ana lives in Boston", 0.70, "ADD"),  # not Ana's home
        ("I now work at Microsoft", "I work at Google", 0.80, "SUPERSEDE"),  # both first person
        # Ordinary conversation turns: cues without a new value of the same attribute.
        (
            "Melanie: We adopted another puppy called Pixie, she's so cute!",
            "Melanie: We adopted a puppy called Oscar last month",
            0.78,
            "ADD",
        ),
        (
            "Caroline: Now I'm off to Paris for a week, so excited!",
            "Caroline: I went on a trip to Rome last summer",
            0.66,
            "ADD",
        ),
        (
            "Jon: Thanks, Gina! I won't quit. I'm gonna keep going, whatever comes my way.",
            "Jon: Thanks, Gina! I won't quit, even when it's hard. I'm gonna make it!",
            0.94,
            "ADD",
        ),
        (
            "John: Hey Maria! Guess what? I'm now part of the fire-fighting brigade.",
            "John: Yeah Maria, I'm really hoping to get into local politics.",
            0.76,
            "ADD",
        ),
        (
            "Joanna: Great! I love when you try something new and it actually works out.",
            "Joanna: Looks delish! Glad you tried something new and it went well.",
            0.73,
            "ADD",
        ),
        (
            "Caroline: I moved to Denver last month, new job and all!",
            "Caroline: Hey Mel! Good to see you. I live in Boston with my two kids, my partner, "
            "our dog and a very old cat who sleeps all day on the sofa by the window, and honestly "
            "it is the best place I have ever lived in.",
            0.62,
            "ADD",
        ),  # too much would vanish
        # An assistant's long answers: a later plan with an "actually" in it restates most
        # words of the earlier one, but corrects nothing in it, and the two answers share most
        # words and a negation. Rewriting or retiring the earlier one would hide all it says.
        (f"Assistant: {PLAN_B}", f"Assistant: {PLAN_A}", 0.72, "ADD"),
        (f"Assistant: {PLAN_A} Do not skip the review.", f"Assistant: {PLAN_A}", 0.97, "ADD"),
        # The same words in a short statement still correct and contradict.
        (
            "Actually, the review is on March 25, not March 20",
            "The review is on March 20",
            0.9,
            "UPDATE",
        ),
        ("Assistant: Do not skip the review", "Assistant: Skip the review", 0.9, "CONTRADICT"),
    ],
)
def test_offline_decider_is_conservative(
    content: str, neighbour: str, cosine: float, action: str
) -> None:
    decision = OfflineDecider().decide(c(content), [n("t", neighbour, cosine)])
    assert decision.action == action
    assert decision.target == (None if action == "ADD" else "t")
    assert decision.decider == "offline" and decision.reason


def test_user_corrected_provenance_is_a_correction_cue() -> None:
    plain = OfflineDecider().decide(c("The manager is called John"), [n("t", "x", 0.75)])
    fixed = OfflineDecider().decide(
        c("The manager is called John", "user_corrected"), [n("t", "x", 0.75)]
    )
    assert (plain.action, fixed.action) == ("ADD", "UPDATE")


def test_same_type_is_needed_for_a_duplicate() -> None:
    d = OfflineDecider().decide(c("Never deploy on Friday", memory_type="negative"),
                                [n("t", "Never deploy on Friday!", 0.99, "procedure")])  # fmt: skip
    assert d.action == "ADD"


def test_cue_helpers() -> None:
    assert subject("Sam Lee now works at Microsoft") == "sam lee"
    assert subject("Caroline: I went to the lake") == "caroline"
    assert subject("Actually, Sam works at Google") == "sam"
    assert subject("the build is green") is None
    assert clashes("Ana likes tea", "Ana dislikes tea")
    assert clashes("Ana likes tea", "Ana does not like tea")
    assert not clashes("Ana likes tea", "Ana likes green tea")
    assert contradicts("Sam is vegetarian", "Sam is not vegetarian")
    assert contradicts("Ana doesn't really like coffee", "Ana likes coffee")
    assert not contradicts("Ana doesn't like coffee", "Ana likes tea and biscuits in the morning")
    assert not contradicts("I can't wait for the show", "The show is next month")


# ---------------------------------------------------------------- through remember


def test_two_phrasings_of_one_fact_are_one_memory_of_strength_two(
    rt: Runtime, namespace: str
) -> None:
    [a] = remember(rt, namespace, NewMemory(content="Melanie loves hiking in the mountains"))
    [b] = remember(
        rt, namespace, NewMemory(content="Melanie really enjoys hiking in the mountains")
    )
    assert b.memory.id == a.memory.id and not b.created
    assert b.memory.strength == 2
    assert [m.id for m in active(rt, namespace)] == [a.memory.id]


@pytest.mark.parametrize("per_item", [0, 20], ids=["vector-index", "exact-small-scope"])
def test_a_batch_finds_its_stored_duplicates_by_index_or_exactly(
    rt: Runtime, namespace: str, per_item: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Neighbours come from the vector index, or, when the batch's scopes hold few memories,
    from one exact search in process: both find the stored near-duplicate."""
    monkeypatch.setattr(neighbours, "EXACT_PER_ITEM", per_item)
    stored = remember(
        rt,
        namespace,
        NewMemory(content="Melanie loves hiking in the mountains"),
        NewMemory(content="The office plant needs water on Fridays"),
        NewMemory(content="Sam keeps his bike in the basement"),
        NewMemory(content="Melanie loves hiking", scope="project", project="other"),
    )
    results = remember(
        rt,
        namespace,
        NewMemory(content="Melanie really enjoys hiking in the mountains"),
        NewMemory(content="The quarterly report is due in March"),
    )
    assert [r.created for r in results] == [False, True]
    assert results[0].memory.id == stored[0].memory.id


def test_a_fact_spanning_two_topics_keeps_both_tags(rt: Runtime, namespace: str) -> None:
    [a] = remember(
        rt,
        namespace,
        NewMemory(content="Ana writes Python scripts to plan her hiking trips", tags=("python",)),
    )
    [b] = remember(
        rt,
        namespace,
        NewMemory(content="Ana writes Python scripts to plan her hiking trips.", tags=("hiking",)),
    )
    assert b.memory.id == a.memory.id
    assert {"python", "hiking"} <= set(b.memory.tags)


def test_change_over_time_is_a_timeline_not_an_error(rt: Runtime, namespace: str) -> None:
    [google] = remember(rt, namespace, NewMemory(content="Sam works at Google"))
    [microsoft] = remember(rt, namespace, NewMemory(content="Sam now works at Microsoft"))
    assert microsoft.created and microsoft.memory.id != google.memory.id
    old = memories.get(rt.store, namespace, google.memory.id)
    assert (old.status, old.superseded_by) == ("superseded", microsoft.memory.id)
    h = history.history(rt.store, namespace, microsoft.memory.id)
    assert [r.content for r in h.supersedes] == ["Sam works at Google"]
    assert [d.action for d in h.decisions] == ["SUPERSEDE"]
    assert h.decisions[0].target_id == google.memory.id and h.decisions[0].decider == "offline"


def test_a_move_supersedes_the_old_home_and_a_new_job_the_old_one(
    rt: Runtime, namespace: str
) -> None:
    """Real changes, decided on real embeddings: each new fact supersedes the old one."""
    [boston] = remember(rt, namespace, NewMemory(content="Ana lives in Boston"))
    [denver] = remember(rt, namespace, NewMemory(content="Ana moved from Boston to Denver"))
    assert (denver.action, denver.target) == ("SUPERSEDE", boston.memory.id)
    [google] = remember(rt, namespace, NewMemory(content="Ada: I work at Google."))
    [microsoft] = remember(rt, namespace, NewMemory(content="Ada: I now work at Microsoft."))
    assert (microsoft.action, microsoft.target) == ("SUPERSEDE", google.memory.id)
    assert {m.content for m in active(rt, namespace)} == {
        "Ana moved from Boston to Denver",
        "Ada: I now work at Microsoft.",
    }


def observed(turns: list[str]) -> list[NewMemory]:
    """``turns`` as one session's observed turns, D1:0, D1:1, ..."""
    return [
        NewMemory(
            content=t, provenance="observed", source=Source(session_id="s", messages=f"D1:{i}")
        )
        for i, t in enumerate(turns)
    ]


def test_ordinary_turns_stay_memories_of_their_own(rt: Runtime, namespace: str) -> None:
    """LoCoMo-like turns, one memory each through the write path: two puppies, two trips,
    encouragements said twice, a new hobby after an old one; none supersedes or merges."""
    turns = [
        "Melanie: We adopted a puppy called Oscar last month, the kids adore him!",
        "Caroline: I went on a road trip to the Grand Canyon with my family last summer.",
        "Jon: Thanks, Gina! I won't quit, even when it's hard. I'm gonna make it!",
        "Melanie: I used to paint landscapes, now I'm really into pottery.",
        "Melanie: We adopted another puppy called Pixie, she's so cute!",
        "Caroline: Now I'm off on a trip to Yellowstone with friends, so excited!",
        "Jon: Thanks! I won't quit, no matter what. Your encouragement motivates me.",
        "Melanie: I joined a pottery class last week and I'm now making bowls.",
    ]
    results = remember(rt, namespace, *observed(turns))
    assert [r.action for r in results] == ["ADD"] * len(turns)
    assert sorted(m.content for m in active(rt, namespace)) == sorted(turns)


def test_an_assistants_long_answers_stay_memories_of_their_own(rt: Runtime, namespace: str) -> None:
    """A later plan that says "actually" and restates most of the earlier one, and an answer
    that repeats a plan with a "do not": through the write path each is a memory of its own,
    with its own turn; the earlier plan stays in recall, neither rewritten nor flagged."""
    turns = [
        f"Assistant: {PLAN_A}",
        f"Assistant: {PLAN_B}",
        f"Assistant: {PLAN_A} Do not skip the review.",
    ]
    results = remember(rt, namespace, *observed(turns))
    assert [r.action for r in results] == ["ADD"] * len(turns)
    kept = {m.content: m.source.messages for m in active(rt, namespace)}
    assert kept == {t: f"D1:{i}" for i, t in enumerate(turns)}
    assert not any(history.history(rt.store, namespace, r.memory.id).contradicts for r in results)


def test_correction_leaves_no_active_memory_with_the_wrong_name(
    rt: Runtime, namespace: str
) -> None:
    [jon] = remember(rt, namespace, NewMemory(content="My manager is Jon Smith"))
    [john] = remember(
        rt, namespace, NewMemory(content="Actually, my manager's name is John Smith, not Jon")
    )
    assert john.memory.id == jon.memory.id and not john.created
    assert not any("Jon Smith" in m.content for m in active(rt, namespace))
    h = history.history(rt.store, namespace, jon.memory.id)
    assert [v.content for v in h.versions] == ["My manager is Jon Smith"]
    assert [d.action for d in h.decisions] == ["ADD", "UPDATE"]


def test_contradiction_keeps_both_and_flags_them(rt: Runtime, namespace: str) -> None:
    [likes] = remember(rt, namespace, NewMemory(content="Ana likes coffee"))
    [hates] = remember(rt, namespace, NewMemory(content="Ana doesn't like coffee"))
    assert hates.created and {m.id for m in active(rt, namespace)} == {
        likes.memory.id,
        hates.memory.id,
    }
    h = history.history(rt.store, namespace, hates.memory.id)
    assert [(r.id, r.resolved) for r in h.contradicts] == [(likes.memory.id, False)]


def test_a_batch_stays_atomic_and_decides_against_its_own_items(
    rt: Runtime, namespace: str
) -> None:
    results = remember(
        rt,
        namespace,
        NewMemory(content="Rita keeps the vault code"),
        NewMemory(content="Rita keeps the vault code."),
        NewMemory(content="Rita is the one who keeps the vault code"),
    )
    assert [r.created for r in results] == [True, False, False]
    assert len({r.memory.id for r in results}) == 1 and results[-1].memory.strength == 3


def test_a_batch_compares_its_items_only_within_one_scope(rt: Runtime, namespace: str) -> None:
    longer = "Rita is the one who keeps the vault code"
    results = remember(
        rt,
        namespace,
        NewMemory(content="Rita keeps the vault code", scope="project", project="alpha"),
        NewMemory(content=longer, scope="project", project="beta"),
        NewMemory(content=longer, scope="project", project="alpha"),
    )
    assert [r.created for r in results] == [True, True, False]
    assert results[2].memory.id == results[0].memory.id


@pytest.mark.parametrize("seed", range(20))
def test_batch_neighbours_come_in_the_order_of_a_full_stable_sort(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    # Few distinct values, so ties are common; some entries ruled out (-inf).
    scores = rng.choice(np.asarray([0.1, 0.5, 0.5, 0.9, -np.inf], dtype=np.float32), size=n)
    expected = np.argsort(-scores, kind="stable")[: neighbours.NEIGHBOURS_K]
    assert neighbours.top_k(scores, neighbours.NEIGHBOURS_K).tolist() == expected.tolist()


def test_remember_events_hold_each_item_as_dataclasses_would_serialise_it() -> None:
    item = NewMemory(
        content="Deploy with make release",
        memory_type="procedure",
        scope="session",
        project="p",
        session_id="s-1",
        provenance="observed",
        source=Source(session_id="s-1", messages="3-4", file_paths=("Makefile",), snippet="x"),
        confidence=0.7,
        trust_score=0.5,
        tags=("deploy",),
        trigger_patterns=("rm -rf",),
        steps=("build", "push"),
        prerequisites=("creds",),
        warnings=("slow",),
        occurred_at="2024-05-01T10:00:00.000000Z",
    )
    for each in (item, NewMemory(content="bare")):
        assert json.dumps(plan.as_dict(each), sort_keys=True) == json.dumps(
            dataclasses.asdict(each), sort_keys=True
        )


# ---------------------------------------------------------------- the LLM decider


def llm(endpoint: Endpoint, timeout_s: float = 5.0) -> ChatClient:
    return ChatClient(LLMConfig(base_url=endpoint.url, model="m", timeout_s=timeout_s))


def test_llm_decision_is_used_and_its_prompt_carries_the_timestamps(
    rt: Runtime, namespace: str, endpoint: Endpoint
) -> None:
    [old] = remember(rt, namespace, NewMemory(content="Sam works at Google"))
    endpoint.content = json.dumps(
        {"action": "SUPERSEDE", "target_id": old.memory.id, "reason": "job change"}
    )
    with llm(endpoint) as client:
        policy = writepath.WritePolicy(decider=LLMDecider(client))
        [new] = writepath.remember(
            rt.store, rt.embedder, namespace,
            [NewMemory(content="Sam is at Microsoft", occurred_at="2024-06-01T00:00:00Z")],
            policy=policy,
        )  # fmt: skip
    prompt = endpoint.requests[0][2]["messages"][1]["content"]
    assert old.memory.created_at in prompt and "2024-06-01T00:00:00Z" in prompt
    h = history.history(rt.store, namespace, new.memory.id)
    assert [(d.action, d.decider, d.reason) for d in h.decisions] == [
        ("SUPERSEDE", "llm", "job change")
    ]


@pytest.mark.parametrize(
    "content",
    [
        "not json at all",
        json.dumps({"action": "DELETE", "target_id": None, "reason": "x"}),
        json.dumps({"action": "UPDATE", "target_id": "made-up-id", "reason": "x"}),
        json.dumps({"action": "ADD", "target_id": None}),
        json.dumps({"action": "NOOP", "target_id": None, "reason": "x", "extra": 1}),
    ],
)
def test_malformed_llm_output_falls_back_and_changes_nothing_else(
    rt: Runtime, namespace: str, endpoint: Endpoint, content: str
) -> None:
    [old] = remember(rt, namespace, NewMemory(content="Sam works at Google"))
    endpoint.content = content
    with llm(endpoint) as client:
        policy = writepath.WritePolicy(decider=LLMDecider(client))
        [new] = writepath.remember(
            rt.store, rt.embedder, namespace, [NewMemory(content="Sam likes green tea")],
            policy=policy,
        )  # fmt: skip
    assert new.created  # the fact is not lost
    assert memories.get(rt.store, namespace, old.memory.id).status == "active"
    assert memories.get(rt.store, namespace, old.memory.id).content == "Sam works at Google"
    [decision] = history.history(rt.store, namespace, new.memory.id).decisions
    assert decision.decider == "offline (llm failed)" and "LLM failed" in decision.reason


def test_llm_timeout_and_http_error_fall_back(
    rt: Runtime, namespace: str, endpoint: Endpoint
) -> None:
    remember(rt, namespace, NewMemory(content="Ana prefers dark mode"))
    endpoint.delay_s = 2.0
    with llm(endpoint, timeout_s=0.3) as client:
        outcomes = commit(
            rt.store, rt.embedder, namespace, [NewMemory(content="Ana likes using dark mode")],
            source="extract", decider=LLMDecider(client),
        )  # fmt: skip
    assert [(o.action, o.decider) for o in outcomes] == [("NOOP", "offline (llm failed)")]
    endpoint.delay_s, endpoint.status = 0.0, 500
    with llm(endpoint) as client:
        outcomes = commit(
            rt.store, rt.embedder, namespace, [NewMemory(content="Ana enjoys dark mode themes")],
            source="extract", decider=LLMDecider(client),
        )  # fmt: skip
    assert outcomes[0].decider == "offline (llm failed)"
    assert len(every(rt, namespace)) >= 1
