"""The schema is real on the embedded engine: every index and uniqueness constraint the dialect
lists exists as an ArcadeDB index (its Cypher DDL alone would not create them)."""

from __future__ import annotations

import re
import uuid

import pytest

from hippograph.graph.errors import HippographError
from hippograph.graph.runtime import Runtime
from hippograph.graph.store import queries


def _expected(name: str) -> str:
    text = queries.load(name, "neo4j").text
    match = re.search(r"FOR \(\w:(\w+)\) (?:REQUIRE \w\.(\w+) IS UNIQUE|ON \(([^)]*)\))", text)
    assert match, f"{name}: not an index or uniqueness statement"
    label, unique, props = match.groups()
    names = [unique] if unique else [p.strip().split(".")[1] for p in props.split(",")]
    return f"{label}[{','.join(names)}]"


def test_every_schema_index_exists_on_the_embedded_engine(runtime: Runtime) -> None:
    assert runtime.store.engine is not None
    present = runtime.store.engine.index_names()
    listed = [
        n for n in runtime.store.dialect.schema
        if n not in runtime.store.dialect.own_steps
        and n not in (
            "schema/memory_embedding_index",
            "schema/word_embedding_index",
            "schema/memory_terms_index",
            "schema/memory_content_index_drop",
        )
    ]  # fmt: skip
    missing = {n: _expected(n) for n in listed if _expected(n) not in present}
    assert not missing, missing
    assert {"Memory[embedding]", "Word[embedding]", "Memory[ft_terms]"} <= present
    # the index of content itself (stores before words were keyed by namespace) is dropped
    assert "Memory[content]" not in present


def test_uniqueness_is_enforced_on_the_embedded_engine(runtime: Runtime, namespace: str) -> None:
    key = f"{namespace}|{uuid.uuid4()}"
    runtime.store.driver.execute_query(
        "CREATE (t:Tag {uid: $uid, namespace: $ns, name: 'x'})",
        uid=key,
        ns=namespace,
        database_=runtime.store.database,
    )
    with pytest.raises(Exception) as caught:  # noqa: PT011 - the driver's or ours
        runtime.store.driver.execute_query(
            "CREATE (t:Tag {uid: $uid, namespace: $ns, name: 'y'})",
            uid=key,
            ns=namespace,
            database_=runtime.store.database,
        )
    assert "uid" in str(caught.value).lower() or isinstance(caught.value, HippographError)
