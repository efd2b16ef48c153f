"""What the full-text index holds for a memory (text/fulltext.py), kept in step with its content
on every write, rebuilt once for a store written before or by another version (migrate.rekey)."""

from __future__ import annotations

from hippograph.graph.model import NewMemory, Source
from hippograph.graph.recall import retrieval
from hippograph.graph.runtime import Runtime
from hippograph.graph.text import fulltext
from hippograph.graph.write import migrate, writepath
from tests.conftest import migration_pending


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


def test_a_written_memory_carries_its_keyed_words(runtime: Runtime, namespace: str) -> None:
    memory_id = _remember(runtime, namespace, "The bilby burrow is under the old gum tree")
    assert _terms(runtime, memory_id) == fulltext.indexed(
        namespace, "The bilby burrow is under the old gum tree"
    )
    assert memory_id in _lexical(runtime, namespace, "bilby")
    # nothing derived leaves through the API's memory reads
    [got] = runtime.store.read("memory/get_many", namespace=namespace, ids=[memory_id])
    assert got["memory"].get("ft_terms") is None


def _rekey_pending(rt: Runtime) -> None:
    """Take away the store's marker that its memories are keyed, as a store of another version."""
    migration_pending(rt.store, migrate.REKEY)


def test_a_store_written_before_is_keyed_once_at_start(runtime: Runtime, namespace: str) -> None:
    """A store whose memories hold no keyed words (written before, or by another version)
    finds nothing by full text until `rekey` runs; `rekey` runs once, then is a no-op."""
    memory_id = _remember(runtime, namespace, "A potoroo dug through the fence last night")
    runtime.store.driver.execute_query(
        "MATCH (m:Memory) WHERE m.namespace = $ns REMOVE m.ft_terms",
        ns=namespace,
        database_=runtime.store.database,
    )
    _rekey_pending(runtime)
    assert memory_id not in _lexical(runtime, namespace, "potoroo fence")
    assert migrate.rekey(runtime.store) >= 1
    assert _terms(runtime, memory_id) == fulltext.indexed(
        namespace, "A potoroo dug through the fence last night"
    )
    assert memory_id in _lexical(runtime, namespace, "potoroo fence")
    assert migrate.rekey(runtime.store) == 0


def test_keying_again_keeps_the_context_words_a_memory_was_indexed_by(
    runtime: Runtime, namespace: str
) -> None:
    """A new version of `words` keys every memory again; the words of the turn before it
    (its context, not in its content) stay, since the content alone cannot give them back."""
    ask = "Gina: Which bakery sells the best sourdough in town?"
    reply = "Jon: Definitely the place on Rua Augusta, go on Saturday morning."
    items = [
        NewMemory(content=t, source=Source(session_id="s1", messages=f"D1:{n}"))
        for n, t in ((1, ask), (2, reply))
    ]
    written = writepath.remember(runtime.store, runtime.embedder, namespace, items)
    reply_id = written[1].memory.id
    key = fulltext.namespace_key(namespace)
    # As an earlier version indexed it: fewer own words ("saturday", "morning" were stop words)
    old = f"{key}jon {key}place {key}rua {key}augusta {key}gina {key}bakery {key}sourdough"
    runtime.store.driver.execute_query(
        "MATCH (m:Memory {id: $id}) SET m.ft_terms = $terms",
        id=reply_id,
        terms=old,
        database_=runtime.store.database,
    )
    _rekey_pending(runtime)
    assert migrate.rekey(runtime.store) >= 1
    terms = (_terms(runtime, reply_id) or "").split()
    assert {f"{key}saturday", f"{key}morning", f"{key}sourdough", f"{key}gina"} <= set(terms)
    assert _terms(runtime, reply_id) == fulltext.indexed(namespace, reply, "gina bakery sourdough")
