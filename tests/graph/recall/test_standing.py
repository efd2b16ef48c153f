"""Standing instructions: the condition a memory's instruction applies to (text/standing.py,
whose rules tests/graph/text/test_standing.py covers), kept on the node wherever its content is
written, and matched against the context at recall (recall/standing.py), on the real engine and
model."""

from __future__ import annotations

import io

import pytest

from hippograph.graph import transfer
from hippograph.graph.model import NewMemory, RememberResult, Source
from hippograph.graph.recall import rank, retrieval
from hippograph.graph.recall.candidates import Candidate
from hippograph.graph.recall.recipes import DEFAULT_CASCADE
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import formation, migrate, writepath
from tests.conftest import migration_pending, wipe

PROJECT_CHAT = [
    ("User", "I'm building a budget tracker with Flask and SQLite for my family."),
    ("Assistant", "Great choice. Flask keeps the routes simple and SQLite needs no server."),
    ("User", "Always include version numbers when I ask about software dependencies."),
    ("User", "I added a transactions table with date, amount and category columns."),
    ("Assistant", "Index the date column: monthly reports filter on it."),
    ("User", "I switched the database code to the SQLAlchemy library."),
    ("User", "Always format dates month-day-year when I ask about deadlines."),
    ("User", "The login page now hashes passwords with the bcrypt library."),
    ("Assistant", "Good. Add a rate limit on the login route to slow down guessing."),
    ("User", "The spending charts are drawn with the Matplotlib library."),
    ("User", "pandas reads the bank's CSV exports into the transactions table."),
    ("User", "We deployed the first version on a small VPS last Friday."),
]


def _chat(rt: Runtime, ns: str) -> dict[str, str]:
    results = writepath.remember(
        rt.store,
        rt.embedder,
        ns,
        [
            NewMemory(
                content=f"{who}: {text}", source=Source(session_id="s1", messages=f"D1:{i + 1}")
            )
            for i, (who, text) in enumerate(PROJECT_CHAT)
        ],
        policy=rt.policy,
    )
    formation.link_adjacent(rt.store, ns)
    return {r.memory.content: r.memory.id for r in results}


def _recall(
    rt: Runtime, ns: str, context: str, k: int = 3, **changes: object
) -> retrieval.RecallResult:
    config = DEFAULT_CASCADE.changed(**changes)
    request = retrieval.RecallRequest(context=context, k=k, explain=True, include_gap=True)
    return retrieval.recall(rt.store, rt.embedder, ns, request, config)


VERSIONS = "User: Always include version numbers when I ask about software dependencies."
DATES = "User: Always format dates month-day-year when I ask about deadlines."
DEPLOYED = "User: We deployed the first version on a small VPS last Friday."


def _props(rt: Runtime, ns: str, memory_id: str) -> dict[str, object]:
    records = rt.store.driver.execute_query(
        "MATCH (m:Memory {id: $id}) WHERE m.namespace = $ns "
        "RETURN m.applies_when AS applies_when, m.standing_in AS standing_in",
        id=memory_id,
        ns=ns,
        database_=rt.store.database,
    ).records
    return dict(records[0])


def test_an_instruction_is_recalled_when_its_condition_is_asked_about(
    any_runtime: Runtime, namespace: str
) -> None:
    ids = _chat(any_runtime, namespace)
    assert _props(any_runtime, namespace, ids[VERSIONS]) == {
        "applies_when": "software dependencies",
        "standing_in": namespace,
    }
    assert _props(any_runtime, namespace, ids[PROJECT_CHAT_FIRST]) == {
        "applies_when": None,
        "standing_in": None,
    }
    question = "Which libraries does this project use?"
    # The question shares no word with the instruction, and its own relevance leaves it out
    # of the top 2 ...
    without = _recall(any_runtime, namespace, question, k=2, standing_rules=0)
    assert ids[VERSIONS] not in [r.memory.id for r in without.items]
    # ... its condition is what the question asks about.
    found = _recall(any_runtime, namespace, question, k=2)
    by_id = {r.memory.id: r for r in found.items}
    assert ids[VERSIONS] in by_id and len(found.items) == 2
    explanation = by_id[ids[VERSIONS]].explanation
    assert explanation is not None and "standing" in explanation.seed_kinds
    # The other instruction's condition (deadlines) is not asked about: it stays out.
    assert ids[DATES] not in by_id
    # A question about deadlines brings that one.
    due = _recall(any_runtime, namespace, "When is the next deadline for the reports?", k=2)
    assert ids[DATES] in [r.memory.id for r in due.items]


PROJECT_CHAT_FIRST = f"{PROJECT_CHAT[0][0]}: {PROJECT_CHAT[0][1]}"


def test_an_unrelated_context_recalls_no_instruction(runtime: Runtime, namespace: str) -> None:
    ids = _chat(runtime, namespace)
    found = _recall(runtime, namespace, "Which host did we deploy the first version on?", k=5)
    assert found.items[0].memory.id == ids[DEPLOYED]
    # Neither condition is near the question: no instruction seeds or is kept in the top k.
    assert not any(
        "standing" in (r.explanation.seed_kinds if r.explanation else ()) for r in found.items
    )


def test_a_store_written_before_gets_its_conditions_once(runtime: Runtime, namespace: str) -> None:
    ids = _chat(runtime, namespace)
    runtime.store.driver.execute_query(
        "MATCH (m:Memory) WHERE m.namespace = $ns REMOVE m.applies_when, m.standing_in",
        ns=namespace,
        database_=runtime.store.database,
    )
    migration_pending(runtime.store, migrate.STANDING)
    question = "Which libraries does this project use?"
    before = _recall(runtime, namespace, question, k=2)
    assert ids[VERSIONS] not in [r.memory.id for r in before.items]
    assert migrate.standing(runtime.store) >= 2
    assert _props(runtime, namespace, ids[DATES])["applies_when"] == "deadlines"
    after = _recall(runtime, namespace, question, k=2)
    assert ids[VERSIONS] in [r.memory.id for r in after.items]
    assert migrate.standing(runtime.store) == 0


def test_an_import_derives_the_conditions_again(any_runtime: Runtime, namespace: str) -> None:
    ids = _chat(any_runtime, namespace)
    buf = io.StringIO()
    transfer.export_to(any_runtime.store, buf, namespace)
    exported = buf.getvalue()
    assert "applies_when" not in exported and "software dependencies" in exported
    wipe(any_runtime.store, namespace)
    transfer.import_from(any_runtime.store, io.StringIO(exported))
    assert _props(any_runtime, namespace, ids[VERSIONS]) == {
        "applies_when": "software dependencies",
        "standing_in": namespace,
    }


def test_an_updated_content_takes_its_new_condition(any_runtime: Runtime, namespace: str) -> None:
    def write(content: str) -> RememberResult:
        [result] = writepath.remember(
            any_runtime.store, any_runtime.embedder, namespace, [NewMemory(content=content)],
            policy=any_runtime.policy,
        )  # fmt: skip
        return result

    first = write("Always quote prices in euros when I ask about budgets.")
    assert _props(any_runtime, namespace, first.memory.id)["applies_when"] == "budgets"
    second = write("Actually, always quote prices in euros when I ask about costs.")
    assert second.memory.id == first.memory.id and not second.created  # an UPDATE
    assert _props(any_runtime, namespace, first.memory.id) == {
        "applies_when": "costs",
        "standing_in": namespace,
    }


def _scored(ids: str) -> list[rank.Scored]:
    return [
        rank.Scored(
            id=i, score=1.0 - n / 10, candidate=Candidate(id=i), cosine=0.0, fulltext=0.0,
            relevance=0.0, speaker=0.0, time=0.0, recency=1.0, confidence=1.0, importance=0.0,
            length=1.0, restated=1.0, asks=0.0, addressee=0.0, direct=0.0,
        )
        for n, i in enumerate(ids)
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("ids", "k", "wanted", "expected"),
    [
        ("abcdef", 3, "e", "abe"),  # the last place goes to the kept one
        ("abcdef", 3, "ef", "aef"),
        ("abcdef", 3, "b", "abc"),  # already inside: nothing moves
        ("abcdef", 2, "fed", "ef"),  # more than k: the first k named, in rank order
        ("abcdef", 3, "xz", "abc"),  # not ranked (filtered out): nothing to keep
        ("abc", 3, "c", "abc"),
    ],
)
def test_kept_places_the_named_inside_the_top_k(
    ids: str, k: int, wanted: str, expected: str
) -> None:
    ranked = rank.kept(_scored(ids), k, list(wanted))
    assert "".join(r.id for r in ranked[:k]) == expected
    assert sorted(r.id for r in ranked) == sorted(ids)


def test_a_memory_the_rules_no_longer_read_as_standing_loses_its_condition(
    runtime: Runtime, namespace: str
) -> None:
    """An older version read an assistant's answer as a constraint: the migration takes the
    condition away again, as it gives one to what now stands."""
    advice = "Assistant: Don't schedule meetings before 10am; mornings are for focus."
    [wrong] = writepath.remember(
        runtime.store, runtime.embedder, namespace, [NewMemory(content=advice)],
        policy=runtime.policy,
    )  # fmt: skip
    runtime.store.driver.execute_query(
        "MATCH (m:Memory {id: $id}) SET m.applies_when = 'scheduling', m.standing_in = $ns",
        id=wrong.memory.id,
        ns=namespace,
        database_=runtime.store.database,
    )
    migration_pending(runtime.store, migrate.STANDING)
    assert migrate.standing(runtime.store) >= 1
    assert _props(runtime, namespace, wrong.memory.id) == {
        "applies_when": None,
        "standing_in": None,
    }
