"""What the full-text index holds: each memory's words keyed by its namespace, kept in step with
its content on every write, rebuilt once for a store written before (or by another version)."""

from __future__ import annotations

from hippograph.graph.model import NewMemory
from hippograph.graph.recall import retrieval
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import fulltext, writepath


def _remember(rt: Runtime, ns: str, text: str) -> str:
    [written] = writepath.remember(
        rt.store, rt.embedder, ns, [NewMemory(content=text)], policy=rt.policy
    )
    return written.memory.id


def _lexical(rt: Runtime, ns: str, context: str) -> set[str]:
    result = retrieval.recall(
        rt.store, rt.embedder, ns, retrieval.RecallRequest(context=context, explain=True)
    )
    return {
        i.memory.id
        for i in result.items
        if i.explanation is not None and i.explanation.fulltext > 0
    }


def _terms(rt: Runtime, memory_id: str) -> str | None:
    rows = rt.store.driver.execute_query(
        "MATCH (m:Memory {id: $id}) RETURN m.ft_terms AS t",
        id=memory_id,
        database_=rt.store.database,
    ).records
    return rows[0]["t"]


def test_words_keys_and_queries() -> None:
    assert fulltext.words("The Quokka's quokka, 3.14 and a-b " + "z" * 65) == ["quokka", "14"]
    key = fulltext.namespace_key("team/a")
    assert key.isalnum() and key.startswith("x") and len(key) == 9
    assert key == fulltext.namespace_key("team/a") != fulltext.namespace_key("team/b")
    assert fulltext.indexed("team/a", "Quokka quokka kea") == f"{key}quokka {key}kea"
    assert fulltext.query("team/a", ["quokka", "kea"]) == f"{key}quokka OR {key}kea"


def test_a_written_memory_carries_its_keyed_words(runtime: Runtime, namespace: str) -> None:
    memory_id = _remember(runtime, namespace, "The bilby burrow is under the old gum tree")
    assert _terms(runtime, memory_id) == fulltext.indexed(
        namespace, "The bilby burrow is under the old gum tree"
    )
    assert memory_id in _lexical(runtime, namespace, "bilby")
    # nothing derived leaves through the API's memory reads
    [got] = runtime.store.read("memory/get_many", namespace=namespace, ids=[memory_id])
    assert got["memory"].get("ft_terms") is None


def test_a_store_written_before_is_keyed_once_at_start(runtime: Runtime, namespace: str) -> None:
    """A store whose memories hold no keyed words (written before, or by another version)
    finds nothing by full text until `rekey` runs; `rekey` runs once, then is a no-op."""
    memory_id = _remember(runtime, namespace, "A potoroo dug through the fence last night")
    runtime.store.driver.execute_query(
        "MATCH (m:Memory) WHERE m.namespace = $ns REMOVE m.ft_terms",
        ns=namespace,
        database_=runtime.store.database,
    )
    runtime.store.driver.execute_query(
        "MATCH (g:Migration {name: $name}) DELETE g",
        name=fulltext.MIGRATION,
        database_=runtime.store.database,
    )
    assert memory_id not in _lexical(runtime, namespace, "potoroo fence")
    assert fulltext.rekey(runtime.store) >= 1
    assert _terms(runtime, memory_id) == fulltext.indexed(
        namespace, "A potoroo dug through the fence last night"
    )
    assert memory_id in _lexical(runtime, namespace, "potoroo fence")
    assert fulltext.rekey(runtime.store) == 0
