"""Rules of the domain records computed in Python, checked against what the engines computed."""

from __future__ import annotations

import itertools

from hippograph.graph.model import effective_confidence
from hippograph.graph.runtime import Runtime

# What recall/scores and recall/expand computed in Cypher before ranking read it from Python.
_CASE = (
    "UNWIND $rows AS m RETURN m.c AS c, m.i AS i, m.t AS t,"
    " CASE WHEN m.c >= coalesce(m.i, m.c) * coalesce(m.t, 1.0)"
    " THEN m.c ELSE coalesce(m.i, m.c) * coalesce(m.t, 1.0) END AS effective"
)


def test_the_effective_confidence_is_the_decayed_one_never_below_the_stated_one() -> None:
    assert effective_confidence(0.9, 0.8, 1.0) == 0.9  # not decayed below it
    assert effective_confidence(0.3, 0.8, 0.5) == 0.4  # decayed: the stated x trust
    assert effective_confidence(0.3, None, None) == 0.3  # no stated one: the decayed
    assert effective_confidence(None, 0.8, None) == 0.8
    assert effective_confidence(None, None, 0.5) is None


def test_the_effective_confidence_is_what_the_engine_computed(any_runtime: Runtime) -> None:
    values = (None, 0.0, 0.1, 0.3, 0.7, 0.9, 1.0, 1)
    rows = [{"c": c, "i": i, "t": t} for c, i, t in itertools.product(values, repeat=3)]
    store = any_runtime.store
    records = store.driver.execute_query(_CASE, rows=rows, database_=store.database)[0]
    assert len(records) == len(rows)
    for r in records:
        assert effective_confidence(r["c"], r["i"], r["t"]) == r["effective"], dict(r)
