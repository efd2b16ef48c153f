"""The context bundle on the embedded engine with the real model: never over budget, rules
first, lowest-ranked dropped first, history shown, gaps empty, bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hippograph.graph import memories
from hippograph.graph.errors import InvalidInput
from hippograph.graph.model import NewMemory
from hippograph.graph.models.embedder import default_model_path
from hippograph.graph.models.tokens import TokenCounter
from hippograph.graph.recall import bundle, retrieval
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath

BUDGETS = (50, 80, 120, 200, 350, 500, 1000, 2000, 4000)

FACTS = [
    "Ada's team deploys the billing service every Tuesday after the standup.",
    "Ada prefers tea over coffee in the afternoon.",
    "The billing service runs on Postgres 16 with logical replication to a reporting replica.",
    "Ada corrected the on-call rota: Ben covers weekends, not Cleo.",
    "To roll back a billing deploy, revert the release tag and rerun the pipeline.",
    "Ada's dog is called Pixel and needs a walk at noon.",
    "The billing service's error budget for the quarter is 99.9% availability.",
    "Deploys of the billing service are announced in the #releases channel.",
]
LONG = (
    "Postmortem of the billing outage: the migration locked the invoices table for eleven "
    "minutes because the index was built without CONCURRENTLY; retries piled up, the "
    "connection pool was exhausted and the API answered 503 to every request. "
) * 12


def remember(rt: Runtime, ns: str, *items: NewMemory) -> list[str]:
    results = writepath.remember(rt.store, rt.embedder, ns, list(items), policy=rt.policy)
    return [r.memory.id for r in results]


@pytest.fixture
def store_ns(runtime: Runtime, namespace: str) -> str:
    remember(runtime, namespace, *[NewMemory(content=c) for c in FACTS])
    remember(runtime, namespace, NewMemory(content=LONG))
    remember(
        runtime,
        namespace,
        NewMemory(
            content="Never deploy the billing service on a Friday.",
            memory_type="negative",
            trigger_patterns=("deploy",),
        ),
    )
    return namespace


def build(rt: Runtime, ns: str, context: str, **kwargs: object) -> bundle.ContextBundle:
    request = bundle.ContextRequest(context=context, **kwargs)  # type: ignore[arg-type]
    return bundle.build(rt.store, rt.embedder, ns, request, rt.cascade)


@pytest.mark.parametrize("fmt", bundle.FORMATS)
def test_the_bundle_never_exceeds_its_budget(runtime: Runtime, store_ns: str, fmt: str) -> None:
    counter = bundle.counter_for(runtime.embedder)
    assert counter.exact
    sizes = []
    for budget in BUDGETS:
        found = build(runtime, store_ns, "when do we deploy billing", budget=budget, format=fmt)
        assert found.tokens == counter.count(found.text)
        assert found.tokens <= budget, (budget, found.text)
        assert found.budget == budget and found.format == fmt
        sizes.append(len(found.items))
        if fmt == "json" and found.text:
            parsed = json.loads(found.text)
            refs = [r["ref"] for r in parsed["rules"]] + [m["ref"] for m in parsed["memories"]]
            assert refs == [i.ref for i in found.items]
    # A larger budget never holds fewer items, and the largest holds everything recalled.
    assert sizes == sorted(sizes)
    assert sizes[0] < sizes[-1]
    largest = build(runtime, store_ns, "when do we deploy billing", budget=4000, format=fmt)
    assert largest.dropped == 0 and not any(i.truncated for i in largest.items)


def test_rules_come_first_and_the_lowest_ranked_drop_first(runtime: Runtime, store_ns: str) -> None:
    context = "when do we deploy billing"
    ranked = retrieval.recall(
        runtime.store,
        runtime.embedder,
        store_ns,
        retrieval.RecallRequest(context=context, k=bundle.DEFAULT_CANDIDATES),
        runtime.cascade,
    )
    order = [i.memory.id for i in ranked.items if not i.flagged]
    for budget in (60, 150, 300):
        found = build(runtime, store_ns, context, budget=budget)
        assert found.items[0].section == "rules"
        assert found.text.startswith("## Rules that apply\n- [1] Never deploy")
        kept = [i.id for i in found.items if i.section != "rules"]
        # What is kept is the best-ranked prefix of the recall (in reading order in the text).
        assert set(kept) == set(order[: len(kept)])
        assert found.dropped == len(order) - len(kept)
        assert all(f"[{i.ref}]" in found.text for i in found.items)


def test_a_memory_that_does_not_fit_whole_is_cut_at_a_token_boundary(
    runtime: Runtime, store_ns: str
) -> None:
    found = build(runtime, store_ns, "billing outage postmortem migration", budget=60)
    cut = [i for i in found.items if i.truncated]
    assert len(cut) == 1 and found.tokens <= 60
    assert bundle.ELLIPSIS in found.text
    assert "Postmortem of the billing outage" in found.text


def test_superseded_versions_are_shown_under_the_current_one(
    runtime: Runtime, namespace: str
) -> None:
    old, new = remember(
        runtime,
        namespace,
        NewMemory(content="Ada works at Initech as a data engineer."),
        NewMemory(content="Ada now works at Globex leading the platform team."),
    )
    memories.supersede(runtime.store, namespace, old, new, reason="changed jobs")
    found = build(runtime, namespace, "where does Ada work", budget=500)
    assert [i.id for i in found.items] == [new]
    lines = found.text.splitlines()
    current = next(n for n, line in enumerate(lines) if "Globex" in line)
    assert lines[current + 1].startswith("  - earlier, until ")
    assert lines[current + 1].endswith("Ada works at Initech as a data engineer.")


def test_a_gap_gives_no_memories_but_still_the_rules(runtime: Runtime, store_ns: str) -> None:
    found = build(runtime, store_ns, "quantum chromodynamics of gluons", budget=500)
    assert found.gap and found.items == () and found.text == ""
    remember(
        runtime,
        store_ns,
        NewMemory(
            content="Never cite lattice results without their error bars.",
            memory_type="negative",
            trigger_patterns=("chromodynamics",),
        ),
    )
    triggered = build(runtime, store_ns, "quantum chromodynamics of gluons", budget=500)
    assert triggered.gap
    assert [i.section for i in triggered.items] == ["rules"]
    assert triggered.text == "## Rules that apply\n- [1] " + (
        "Never cite lattice results without their error bars."
    )


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"budget": 0}, "budget"), ({"budget": 40_000}, "budget"), ({"format": "xml"}, "format")],
)
def test_bad_input_is_a_typed_error(
    runtime: Runtime, store_ns: str, kwargs: dict[str, object], field: str
) -> None:
    with pytest.raises(InvalidInput) as info:
        build(runtime, store_ns, "deploy", **kwargs)
    assert info.value.field == field


def test_the_counter_uses_the_models_tokenizer_or_says_it_approximates(tmp_path: Path) -> None:
    exact = TokenCounter(default_model_path())
    assert exact.exact
    text = "Ada's unbelievably idiosyncratic deployment choreography"
    assert exact.count(text) > len(text.split())  # WordPiece splits rare words
    assert exact.count(exact.truncate(text, 5)) <= 5
    assert exact.truncate(text, 500) == text
    approx = TokenCounter(tmp_path)
    assert not approx.exact
    assert approx.count("x" * 9) == 3 and approx.truncate("x" * 9, 2) == "x" * 8


def test_a_replaced_fact_is_dated_by_when_it_stopped_being_true(
    runtime: Runtime, namespace: str
) -> None:
    """Told today that Ada changed jobs in June 2024: the old job ended then, not today."""
    old, new = remember(
        runtime,
        namespace,
        NewMemory(content="Ada works at Google.", occurred_at="2020-02-01T00:00:00Z"),
        NewMemory(
            content="Ada works at Microsoft since June 2024.", occurred_at="2024-06-01T00:00:00Z"
        ),
    )
    memories.supersede(runtime.store, namespace, old, new, reason="changed jobs")
    found = build(runtime, namespace, "Where does Ada work?", budget=500)
    assert "  - earlier, until 2024-06-01: Ada works at Google." in found.text.splitlines()
    as_json = json.loads(build(runtime, namespace, "Where does Ada work?", format="json").text)
    [memory] = as_json["memories"]
    assert memory["earlier"] == [{"until": "2024-06-01", "content": "Ada works at Google."}]


def test_a_constraint_that_applies_is_kept_in_a_small_budget_and_a_gap(
    runtime: Runtime, namespace: str
) -> None:
    """ "What should I cook tonight?" shares no word with the allergy; the allergy stands for
    food (text/standing.py) and comes first, also where the rest is left out."""
    remember(
        runtime,
        namespace,
        *[NewMemory(content=c) for c in FACTS],
        NewMemory(content="Maya is allergic to peanuts."),
    )
    found = build(runtime, namespace, "What should I cook for dinner tonight?", budget=60)
    assert "Maya is allergic to peanuts." in found.text and found.tokens <= 60
    result = retrieval.recall(
        runtime.store,
        runtime.embedder,
        namespace,
        retrieval.RecallRequest(context="Any dinner ideas for this weekend?", k=5),
        runtime.cascade,
        services=runtime.services,
    )
    assert result.items[0].memory.content == "Maya is allergic to peanuts."
    assert result.items[0].applies and not result.gap
