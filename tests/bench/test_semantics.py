"""bench/semantics.py: every scenario file follows the format, the runner judges as its README
says, and a subset of the stories passes through the real HTTP app on the engine (all of them:
`python bench/semantics.py --embedded`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bench import semantics
from hippograph.api.app import create_app
from hippograph.client import Client
from hippograph.graph.runtime import Runtime
from tests.live_server import serve_in_thread

# Two stories a category, each leaning on one behaviour: a correction by conversation and by
# reference, a paraphrase of a forgotten fact, constraints and rules inside a small budget,
# instructions with and without a condition, a second hop and a pronoun, the assistant's
# chatter, a rescheduled plan and a replaced fact's dates, a failed route and a procedure.
SUBSET = (
    "update-moved-bilbao", "update-dinner-budget-200",
    "forget-birthday-paraphrase", "forget-medication-hard-core",
    "constraints-peanut-cooking", "constraints-overnight-layover",
    "instructions-dependency-versions", "instructions-metric-units",
    "relations-cat-vet", "relations-about-fatima",
    "noise-noted-hotel", "noise-assistant-commitment-rule",
    "time-iceland-return", "time-employer-validity",
    "experience-printer-offline", "experience-docs-deploy-procedure",
)  # fmt: skip


def test_every_scenario_loads_and_each_category_has_both_input_styles() -> None:
    found = semantics.load_all()
    counts = Counter(s.category for s in found)
    assert set(counts) == set(semantics.CATEGORIES) and min(counts.values()) >= 12, counts
    for category in semantics.CATEGORIES:
        steps = {kind for s in found if s.category == category for st in s.story for kind in st}
        assert {"ingest", "remember"} <= steps, category
    assert set(SUBSET) <= {s.id for s in found}


def test_a_scenario_with_an_unknown_key_is_refused_by_its_path(tmp_path: Path) -> None:
    (tmp_path / "noise").mkdir()
    bad = tmp_path / "noise" / "bad.yaml"
    bad.write_text(
        "id: bad\ncategory: noise\nstory: []\n"
        "checks:\n  - call: recall\n    ask: hi\n    presnt: [{words: [x]}]\n",
        encoding="utf-8",
    )
    with pytest.raises(semantics.ScenarioError, match=r"bad.yaml.checks\[0\].*presnt"):
        semantics.load_all(tmp_path)


def test_a_check_is_judged_by_words_ranks_and_order() -> None:
    check = semantics.Check(
        call="recall",
        ask="Where does Maya live?",
        args={},
        present=(semantics.Expect(("porto",), 2),),
        absent=(semantics.Expect(("lisbon",), None),),
        order=((semantics.Expect(("porto",), None), semantics.Expect(("braga",), None)),),
    )
    assert semantics.judge(check, ["Maya moved to Porto.", "Maya's sister lives in Braga."]) == []
    failures = semantics.judge(check, ["Maya lives in Lisbon.", "Braga", "Maya moved to Porto."])
    assert failures == [
        "missing ['porto'] in top 2",
        "present ['lisbon'] at rank 1",
        "order: ['porto'] at 2 not above ['braga'] at 1",
    ]


def test_a_subset_of_the_stories_passes_through_the_api(any_runtime: Runtime) -> None:
    scenarios = [s for s in semantics.load_all() if s.id in SUBSET]
    with (
        serve_in_thread(create_app(runtime=any_runtime)) as base,
        Client(f"{base}/graphql", timeout=120) as client,
    ):
        outcomes = semantics.run_all(client, scenarios)
    failed = [(o.scenario, o.check, o.failures, o.got[:5]) for o in outcomes if not o.passed]
    assert failed == []
    assert len(outcomes) == sum(len(s.checks) for s in scenarios)
