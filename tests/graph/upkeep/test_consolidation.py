"""Consolidation: gate, lock, watermark, groups, dry run, and the scenarios of the issue."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import timedelta

import numpy as np
import pytest

from hippograph.graph import clock, history, memories, transfer
from hippograph.graph.errors import Conflict, LockHeld
from hippograph.graph.model import NewMemory
from hippograph.graph.models.llm import ChatClient, LLMConfig
from hippograph.graph.recall import feedback
from hippograph.graph.runtime import Runtime
from hippograph.graph.upkeep import close_pairs, consolidation, consolidation_apply
from hippograph.graph.upkeep.consolidation_model import ConsolidationConfig, Group, Operation
from hippograph.graph.write import episodes
from hippograph.graph.write.decide import CONSIDER_MIN, Candidate, Decision, LLMDecider, Neighbour
from hippograph.graph.write.writepath import commit
from tests.graph.llm_server import Endpoint, serve
from tests.graph.log_fixtures import active, every, log_runtime, remember, turn
from tests.graph.write.test_decide import PLAN_A

EAGER = ConsolidationConfig(min_interval_s=0, min_new_facts=0)


class AlwaysAdd:
    """Writes facts without deciding, as an import or an old version would have."""

    name = "always-add"

    def decide(self, candidate: Candidate, neighbours: Sequence[Neighbour]) -> Decision:
        return Decision(action="ADD", target=None, reason="test setup", decider=self.name)


@pytest.fixture
def rt(runtime: Runtime, namespace: str) -> Iterator[Runtime]:
    yield from log_runtime(runtime, namespace)
    runtime.store.driver.execute_query(
        "MATCH (n) WHERE (n:ConsolidationRun AND n.scope = $ns) "
        "OR (n:ConsolidationState AND n.key = 'scope:' + $ns) DETACH DELETE n",
        ns=namespace,
        database_=runtime.store.database,
    )


def add(rt: Runtime, ns: str, *contents: str, **fields: object) -> list[str]:
    items = [NewMemory(content=c, **fields) for c in contents]  # type: ignore[arg-type]
    outcomes = commit(rt.store, rt.embedder, ns, items, source="remember", decider=AlwaysAdd())
    return [o.memory_id or "" for o in outcomes]


def run(rt: Runtime, ns: str, **kw: object) -> consolidation.ConsolidationReport:
    kw.setdefault("config", EAGER)
    return consolidation.consolidate(rt.store, namespace=ns, **kw)  # type: ignore[arg-type]


def test_change_over_time_becomes_a_timeline(rt: Runtime, namespace: str) -> None:
    google, microsoft = add(rt, namespace, "Sam works at Google", "Sam now works at Microsoft")
    found = memories.search(rt.store, rt.embedder, namespace, "where does Sam work", 5)
    assert {s.memory.id for s in found} == {google, microsoft}  # both before consolidation
    report = run(rt, namespace)
    assert report.ran and report.counts["supersede"] == 1
    assert [m.id for m in active(rt, namespace)] == [microsoft]
    h = history.history(rt.store, namespace, microsoft)
    assert [r.content for r in h.supersedes] == ["Sam works at Google"]
    assert [(d.action, d.source) for d in h.decisions][-1] == ("SUPERSEDE", "consolidate")
    assert memories.get(rt.store, namespace, google).status == "superseded"


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    yield from serve()


def test_the_llm_decides_within_its_budget_and_the_rules_after(
    rt: Runtime, namespace: str, endpoint: Endpoint
) -> None:
    """A run asks the model at most llm_max_calls times; later candidates get the offline
    rules, labelled, and the run's counts say how many."""
    pairs = [
        ("Melanie loves hiking in the mountains", "Melanie really enjoys hiking in the mountains"),
        ("Sam keeps his bike in the garage", "Sam keeps his bicycle in the garage"),
        ("Rita bakes rye bread on Sundays", "Rita bakes rye bread every Sunday"),
    ]
    for old, new in pairs:
        add(rt, namespace, old)
        add(rt, namespace, new)
    endpoint.content = json.dumps({"action": "ADD", "target_id": None, "reason": "distinct"})
    with ChatClient(LLMConfig(base_url=endpoint.url, model="m", timeout_s=5)) as client:
        config = replace(EAGER, llm_max_calls=1)
        report = run(rt, namespace, config=config, decider=LLMDecider(client))
    assert len(endpoint.requests) == 1
    assert report.counts["llm_calls"] == 1 and report.counts["llm_over_budget"] == 2
    # The model said ADD for the pair it saw: whatever changed, the rules decided, and say so.
    assert report.counts["merge"] >= 1
    assert {op.decider for op in report.operations} == {"offline (llm budget spent)"}


def test_duplicates_merge_into_one_memory_with_both_tags_and_strength(
    rt: Runtime, namespace: str
) -> None:
    a = add(rt, namespace, "Melanie loves hiking in the mountains", tags=("hiking",))[0]
    b = add(rt, namespace, "Melanie really enjoys hiking in the mountains", tags=("outdoors",))[0]
    report = run(rt, namespace)
    assert report.counts["merge"] == 1
    [kept] = active(rt, namespace)
    assert kept.id in (a, b) and kept.strength == 2
    assert {"hiking", "outdoors"} <= set(kept.tags)
    retired = memories.get(rt.store, namespace, b if kept.id == a else a)
    assert retired.status == "archived"  # archived, never deleted


def test_export_after_a_merge_imports_exactly(rt: Runtime, namespace: str) -> None:
    """A merge leaves a MERGED_INTO edge; a backup taken afterwards must restore it."""
    add(rt, namespace, "Melanie loves hiking in the mountains")
    add(rt, namespace, "Melanie really enjoys hiking in the mountains")
    assert run(rt, namespace).counts["merge"] == 1
    backup = io.StringIO()
    transfer.export_to(rt.store, backup, namespace)
    exported = [json.loads(x) for x in backup.getvalue().splitlines()]
    merged = [x for x in exported if x.get("type") == "MERGED_INTO"]
    assert len(merged) == 1
    rt.store.driver.execute_query(
        "MATCH (n) WHERE n.namespace = $ns DETACH DELETE n",
        ns=namespace,
        database_=rt.store.database,
    )
    counts = transfer.import_from(rt.store, io.StringIO(backup.getvalue()))
    assert counts["edge:MERGED_INTO"] == 1
    again = io.StringIO()
    transfer.export_to(rt.store, again, namespace)
    assert sorted(again.getvalue().splitlines()[1:]) == sorted(backup.getvalue().splitlines()[1:])


def test_open_contradiction_is_resolved_newer_wins(rt: Runtime, namespace: str) -> None:
    [old] = remember(rt, namespace, NewMemory(content="Ana likes coffee"))
    [new] = remember(rt, namespace, NewMemory(content="Ana doesn't like coffee"))
    assert len(active(rt, namespace)) == 2
    report = run(rt, namespace)
    assert report.counts["resolve"] == 1
    assert [m.id for m in active(rt, namespace)] == [new.memory.id]
    [edge] = history.history(rt.store, namespace, new.memory.id).contradicts
    assert edge.id == old.memory.id and edge.resolved


class Contradicting:
    """Flags every new fact as contradicting ``target``, as the write path once did between an
    assistant's long answers."""

    name = "contradicting"

    def __init__(self, target: str) -> None:
        self.target = target

    def decide(self, candidate: Candidate, neighbours: Sequence[Neighbour]) -> Decision:
        return Decision(action="CONTRADICT", target=self.target, reason="test", decider=self.name)


def test_an_open_contradiction_with_a_long_memory_is_left_flagged(
    rt: Runtime, namespace: str
) -> None:
    """A contradiction whose older side is a long turn is not resolved by superseding it: all
    else it says would leave recall too. Both stay active, the edge open for a person."""
    [plan] = add(rt, namespace, f"Assistant: {PLAN_A}")
    [again] = [
        o.memory_id or ""
        for o in commit(
            rt.store, rt.embedder, namespace,
            [NewMemory(content=f"Assistant: {PLAN_A} Do not skip the review.")],
            source="remember", decider=Contradicting(plan),
        )
    ]  # fmt: skip
    report = run(rt, namespace)
    assert (report.counts["resolve"], report.counts["flag"]) == (0, 1)
    assert {m.id for m in active(rt, namespace)} == {plan, again}
    [edge] = history.history(rt.store, namespace, again).contradicts
    assert edge.id == plan and not edge.resolved


def fade(rt: Runtime, memory_id: str, *, base: float | None = None) -> None:
    """Set a memory's decayed confidence to 0.01 (and its base, if given), as decay would."""
    rt.store.driver.execute_query(
        "MATCH (m:Memory {id: $id}) SET m.confidence = 0.01, "
        "m.initial_confidence = coalesce($base, m.initial_confidence)",
        id=memory_id,
        base=base,
        database_=rt.store.database,
    )


def test_weak_memories_are_archived_not_deleted(rt: Runtime, namespace: str) -> None:
    weak, strong = add(rt, namespace, "Bob once mentioned a blue kite", "Bob is a pilot")
    fade(rt, weak, base=0.3)
    clock.advance(timedelta(days=EAGER.weak_grace_days + 1))
    report = run(rt, namespace)
    assert report.counts["archive"] == 1
    assert memories.get(rt.store, namespace, weak).status == "archived"
    assert [m.id for m in active(rt, namespace)] == [strong]


def test_weak_memory_waits_out_its_grace_period(rt: Runtime, namespace: str) -> None:
    [weak] = add(rt, namespace, "Bob once mentioned a blue kite")
    fade(rt, weak, base=0.3)
    learned = clock.now()
    clock.set_now(learned + timedelta(days=EAGER.weak_grace_days - 1))
    assert run(rt, namespace).counts["archive"] == 0
    clock.set_now(learned + timedelta(days=EAGER.weak_grace_days + 1))
    assert run(rt, namespace).counts["archive"] == 1
    assert memories.get(rt.store, namespace, weak).status == "archived"


def test_a_used_weak_memory_is_kept_until_unused_for_the_grace_period(
    rt: Runtime, namespace: str
) -> None:
    [weak] = add(rt, namespace, "Bob once mentioned a blue kite")
    learned = clock.now()
    grace = timedelta(days=EAGER.weak_grace_days)
    used_at = clock.advance(grace - timedelta(days=5))
    feedback.use(rt.store, namespace, [weak])
    fade(rt, weak, base=0.3)
    clock.set_now(learned + grace + timedelta(days=1))  # unused since learned: over grace
    assert run(rt, namespace).counts["archive"] == 0
    assert memories.get(rt.store, namespace, weak).status == "active"
    clock.set_now(used_at + grace + timedelta(days=1))  # unused since used: over grace
    assert run(rt, namespace).counts["archive"] == 1


def test_a_faded_fact_stated_with_confidence_is_not_archived(rt: Runtime, namespace: str) -> None:
    # Stated (0.9) and never used for a year: decay ranks it low, but it is not weak at its
    # base, so consolidation keeps it.
    [stated] = add(rt, namespace, "Bob once mentioned a blue kite")
    fade(rt, stated)
    clock.advance(timedelta(days=365))
    assert run(rt, namespace).counts["archive"] == 0
    assert memories.get(rt.store, namespace, stated).status == "active"


def test_gate_respects_time_and_volume_and_force_overrides(rt: Runtime, namespace: str) -> None:
    gate = ConsolidationConfig(min_interval_s=3600, min_new_facts=3)
    add(rt, namespace, "Fact one about apples", "Fact two about boats")
    first = run(rt, namespace, config=gate)
    assert not first.ran and "2 new facts" in (first.skipped or "")
    add(rt, namespace, "Fact three about clouds")
    second = run(rt, namespace, config=gate)
    assert second.ran and second.run_id
    add(rt, namespace, "Fact four about dunes", "Fact five about eels", "Fact six about figs")
    third = run(rt, namespace, config=gate)
    assert not third.ran and "minimum interval" in (third.skipped or "")
    forced = run(rt, namespace, config=gate, force=True)
    assert forced.ran


def test_dry_run_returns_the_plan_and_writes_nothing(rt: Runtime, namespace: str) -> None:
    add(rt, namespace, "Sam works at Google", "Sam now works at Microsoft")
    before = {(m.id, m.status, m.updated_at) for m in every(rt, namespace)}
    plan = run(rt, namespace, dry_run=True)
    assert plan.dry_run and not plan.ran and plan.run_id is None
    assert [op.op for op in plan.operations] == ["supersede"]
    assert {(m.id, m.status, m.updated_at) for m in every(rt, namespace)} == before
    assert consolidation.runs(rt.store, namespace) == []


def test_runs_are_recorded_and_idempotent(rt: Runtime, namespace: str) -> None:
    add(rt, namespace, "Ana prefers dark mode", "Ana likes using dark mode")
    first = run(rt, namespace)
    second = run(rt, namespace, force=True)
    assert first.counts["merge"] == 1
    assert sum(second.counts[k] for k in ("merge", "supersede", "resolve", "archive")) == 0
    [latest, earliest] = consolidation.runs(rt.store, namespace)
    assert earliest["id"] == first.run_id and latest["id"] == second.run_id
    assert earliest["watermark_after"] == first.started_at


def test_a_failing_group_keeps_the_watermark_and_is_retried(rt: Runtime, namespace: str) -> None:
    add(rt, namespace, "Ana prefers dark mode", "Ana likes using dark mode")
    before = run(rt, namespace, dry_run=True).watermark_before

    def meddle(groups: Sequence[Group]) -> None:
        # Someone reinforces a memory of the group after planning: the group must not apply.
        member = sorted(groups[0].members)[0]
        rt.store.driver.execute_query(
            "MATCH (m:Memory {id: $id}) SET m.updated_at = '2999-01-01T00:00:00.000000Z'",
            id=member,
            database_=rt.store.database,
        )

    failed = run(rt, namespace, before_apply=meddle)
    assert failed.ran and failed.counts["failed_groups"] == 1 and failed.errors
    assert failed.watermark_after == before
    assert len(active(rt, namespace)) == 2
    retried = run(rt, namespace, force=True)
    assert retried.counts["merge"] == 1 and not retried.errors
    assert len(active(rt, namespace)) == 1


def test_two_concurrent_runs_one_reports_the_lock(rt: Runtime, namespace: str) -> None:
    add(rt, namespace, "Ana prefers dark mode", "Ana likes using dark mode")
    seen: list[LockHeld] = []

    def second_run(groups: Sequence[Group]) -> None:
        with pytest.raises(LockHeld) as err:
            run(rt, namespace, force=True)
        seen.append(err.value)

    first = run(rt, namespace, before_apply=second_run)
    assert first.ran and len(seen) == 1 and seen[0].code == "LOCKED"
    assert run(rt, namespace, force=True).ran  # the lock was released


def test_forgotten_fact_does_not_come_back(rt: Runtime, namespace: str) -> None:
    [r] = remember(rt, namespace, NewMemory(content="Sam: Sam's old phone number is 555-0100"))
    memories.forget(rt.store, namespace, r.memory.id, reason="user asked")
    result = episodes.ingest(
        rt.store, rt.embedder, namespace,
        [turn("s1", 0, "My old phone number is 555-0100")], policy=rt.policy, flush=True,
    )  # fmt: skip
    assert result.actions == {"SKIP": 1}
    run(rt, namespace, force=True)
    assert not any("555-0100" in m.content for m in active(rt, namespace))


def test_nearest_neighbours_cut_down_in_steps_equal_the_one_shot_cut() -> None:
    """Planning cuts the close pairs down to each candidate's nearest whenever too many are
    held; doing so part by part must give exactly what one cut over all of them gives, with a
    pair seen from both ends counted once at its best cosine."""
    rng = np.random.default_rng(5)
    size, pairs = 300, 20_000
    cand = rng.integers(0, size, pairs)
    near = (cand + rng.integers(1, size, pairs)) % size
    cos = rng.choice(np.linspace(0.55, 1.0, 50), pairs).astype(np.float32)  # many ties
    cand, near, cos = np.r_[cand, cand[:500]], np.r_[near, near[:500]], np.r_[cos, cos[:500] - 0.01]
    parts = [(cand[i::4], near[i::4], cos[i::4]) for i in range(4)]
    one_shot = close_pairs.nearest([(cand, near, cos)], size)
    stepped = close_pairs.nearest([close_pairs.nearest(parts[:2], size), *parts[2:]], size)
    for a, b in zip(one_shot, stepped, strict=True):
        assert np.array_equal(a, b)
    got_cand, got_near, _ = one_shot
    assert len(set(zip(got_cand.tolist(), got_near.tolist(), strict=True))) == len(got_cand)
    counts = np.bincount(got_cand, minlength=size)
    assert counts.max() == close_pairs.NEIGHBOURS_K


def test_a_failing_group_does_not_hold_back_the_others(rt: Runtime, namespace: str) -> None:
    """Groups are applied several to a transaction; when one of them fails, the others still
    apply and only that one is reported."""
    add(rt, namespace, "Ana prefers dark mode", "Ana likes using dark mode")
    add(rt, namespace, "Ben drinks green tea daily", "Ben drinks green tea every day")
    meddled: list[str] = []

    def meddle(groups: Sequence[Group]) -> None:
        assert len(groups) == 2
        member = sorted(groups[0].members)[0]
        meddled.append(member)
        rt.store.driver.execute_query(
            "MATCH (m:Memory {id: $id}) SET m.updated_at = '2999-01-01T00:00:00.000000Z'",
            id=member,
            database_=rt.store.database,
        )

    report = run(rt, namespace, before_apply=meddle)
    assert report.counts["failed_groups"] == 1 and len(report.errors) == 1
    assert report.counts["merge"] == 1
    assert len(active(rt, namespace)) == 3
    assert meddled[0] in {m.id for m in active(rt, namespace)}


def test_a_batch_whose_transaction_fails_is_retried_group_by_group(
    rt: Runtime, namespace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A group whose writes fail spoils its batch's transaction; the batch is then applied one
    group to a transaction, so the other groups still land and only that one is reported."""
    add(rt, namespace, "Ana prefers dark mode", "Ana likes using dark mode")
    add(rt, namespace, "Ben drinks green tea daily", "Ben drinks green tea every day")
    add(rt, namespace, "Cleo plays the cello", "Cleo plays the cello well")
    planned: list[Group] = []
    real_wave = consolidation_apply.apply_wave

    def faulty_wave(tx: object, ns: str, ops: Sequence[Operation], now: str) -> None:
        real_wave(tx, ns, ops, now)  # type: ignore[arg-type]
        if any(op.other in planned[0].members for op in ops):
            raise Conflict("the engine refused this group's writes")

    monkeypatch.setattr(consolidation_apply, "apply_wave", faulty_wave)
    progress: list[tuple[int, int]] = []
    report = run(rt, namespace, before_apply=planned.extend,
                 progress=lambda done, total: progress.append((done, total)))  # fmt: skip
    assert len(planned) == 3
    assert report.counts["failed_groups"] == 1 and report.counts["merge"] == 2
    assert len(report.errors) == 1 and "refused" in report.errors[0]
    assert report.watermark_after == report.watermark_before
    left = {m.id for m in active(rt, namespace)}
    assert planned[0].members <= left and len(left) == 4  # the failed pair is untouched
    assert progress[-1] == (3, 3)


def _topics(size: int, seed: int) -> np.ndarray:
    """Unit vectors around 60 topic centres, spread so that close pairs range over 0.55..1."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((60, 384))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    noise = rng.standard_normal((size, 384)) * rng.uniform(0.005, 0.06, (size, 1))
    vectors = centres[rng.integers(len(centres), size=size)] + noise
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)


def _close(blocks: object) -> dict[tuple[int, int], float]:
    return {
        (int(me[i]), int(cols[j])): float(sims[i, j])
        for me, cols, sims in blocks  # type: ignore[attr-defined]
        for i, j in zip(*np.nonzero(sims >= CONSIDER_MIN), strict=True)
    }


def test_probed_search_finds_the_close_pairs_exact_search_finds() -> None:
    """Above EXACT_MAX memories a bucket is searched through cells (inverted file); on
    topic-clustered vectors it must find every near-duplicate pair and nearly every close
    one, with the same cosines, and never pair a memory with itself."""
    vectors = _topics(6000, 11)
    dirty = np.sort(np.random.default_rng(3).choice(len(vectors), 2000, replace=False))
    exact = _close(close_pairs.exact_blocks(vectors, dirty))
    probed = _close(close_pairs.probed_blocks(vectors, dirty))
    assert exact and all(a != b for a, b in probed) and set(probed) <= set(exact)
    assert all(abs(probed[p] - exact[p]) < 1e-4 for p in probed)
    duplicates = {p for p, c in exact.items() if c >= 0.85}
    assert duplicates and duplicates <= set(probed)
    assert len(probed) >= 0.99 * len(exact)
    assert min(exact.values()) < 0.7  # the data has more than near-duplicates


def test_neighbour_lists_equal_the_lists_built_from_every_pair() -> None:
    """The blocks are cut to each row's nearest before pairs are collected; the lists must be
    the ones every close pair gives: a candidate is the newer end of a pair with a changed
    end, its neighbours the NEIGHBOURS_K closest older (or same-instant) ones."""
    vectors = _topics(1500, 12)
    rng = np.random.default_rng(4)
    size = len(vectors)
    order = rng.permutation(size)
    instant = order // 2  # pairs of memories written in the same instant
    dirty = np.sort(rng.choice(size, 400, replace=False))
    cand, near, cos = close_pairs.neighbour_lists(vectors, dirty, order, instant)
    sims = vectors @ vectors.T
    changed = set(dirty.tolist())
    want: dict[int, list[tuple[float, int]]] = {}
    for a, b in zip(*np.nonzero(sims >= CONSIDER_MIN), strict=True):
        a, b = int(a), int(b)
        newer = order[a] > order[b] or instant[a] == instant[b]
        if a != b and (a in changed or b in changed) and newer:
            want.setdefault(a, []).append((float(sims[a, b]), b))
    got: dict[int, list[int]] = {}
    for c, n in zip(cand.tolist(), near.tolist(), strict=True):
        got.setdefault(c, []).append(n)
    assert set(got) == set(want)
    for c, found in got.items():
        ranked = sorted(want[c], key=lambda x: -x[0])[: close_pairs.NEIGHBOURS_K]
        assert found == [b for _, b in ranked], c
