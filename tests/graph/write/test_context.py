"""Context-aware indexing: a memory said in a session is indexed with the words of the memory
before it in that session (sent in one batch or one by one), its content left as it was, and
recall finds it by them at a fraction of a word of its own."""

from __future__ import annotations

from dataclasses import replace

from hippograph.graph import memories
from hippograph.graph.model import NewMemory, Source
from hippograph.graph.recall import retrieval
from hippograph.graph.recall.recall_config import CascadeConfig
from hippograph.graph.recall.recipes import DEFAULT_CASCADE
from hippograph.graph.runtime import Runtime
from hippograph.graph.text import fulltext
from hippograph.graph.write import context, writepath

ASK = "Gina: Which bakery sells the best sourdough in town?"
REPLY = "Jon: Definitely the little place on Rua Augusta, ask for Marta."
AFTER = "Gina: Thanks, I will go there on Saturday morning."


def _turn(text: str, session: str, turn: int) -> NewMemory:
    return NewMemory(content=text, source=Source(session_id=session, messages=f"D1:{turn}"))


def _remember(rt: Runtime, ns: str, *items: NewMemory) -> list[str]:
    written = writepath.remember(rt.store, rt.embedder, ns, list(items), policy=rt.policy)
    return [w.memory.id for w in written]


def _terms(rt: Runtime, memory_id: str) -> str:
    rows = rt.store.driver.execute_query(
        "MATCH (m:Memory {id: $id}) RETURN m.ft_terms AS t",
        id=memory_id,
        database_=rt.store.database,
    ).records
    return str(rows[0]["t"])


def test_indexed_words_are_the_content_then_the_context_it_lacks() -> None:
    key = fulltext.namespace_key("ns")
    terms = fulltext.indexed("ns", "Jon: the bakery", "Gina: which bakery, Jon?")
    assert terms == f"{key}jon {key}bakery {key}gina"
    assert fulltext.indexed("ns", "Jon: the bakery") == f"{key}jon {key}bakery"


def test_a_batch_indexes_each_turn_with_the_one_before_it_in_its_session(
    runtime: Runtime, namespace: str
) -> None:
    ask, other, reply, loose = _remember(
        runtime,
        namespace,
        _turn(ASK, "s1", 1),
        _turn("Ana: The ferry leaves at noon.", "s2", 1),
        _turn(REPLY, "s1", 2),
        NewMemory(content="The office closes at six."),
    )
    assert _terms(runtime, ask) == fulltext.indexed(namespace, ASK)
    assert _terms(runtime, other) == fulltext.indexed(namespace, "Ana: The ferry leaves at noon.")
    assert _terms(runtime, reply) == fulltext.indexed(namespace, REPLY, ASK)
    assert _terms(runtime, loose) == fulltext.indexed(namespace, "The office closes at six.")
    [stored] = runtime.store.read("memory/get_many", namespace=namespace, ids=[reply])
    assert stored["memory"]["content"] == REPLY


def test_a_turn_sent_alone_is_indexed_with_the_stored_turn_before_it(
    runtime: Runtime, namespace: str
) -> None:
    _remember(runtime, namespace, _turn(ASK, "s1", 1), _turn(REPLY, "s1", 2))
    [after] = _remember(runtime, namespace, _turn(AFTER, "s1", 3))
    assert _terms(runtime, after) == fulltext.indexed(namespace, AFTER, REPLY)
    [first] = _remember(runtime, namespace, _turn("Jon: Hi there!", "s9", 1))
    assert _terms(runtime, first) == fulltext.indexed(namespace, "Jon: Hi there!")


def test_a_turn_sent_late_is_indexed_with_the_stored_turn_said_before_it(
    runtime: Runtime, namespace: str
) -> None:
    """Not with a turn said after it, though the session's latest batch holds only those; and
    the stored turn said next after it is indexed again with it, in the same write."""
    ask, _ = _remember(runtime, namespace, _turn(ASK, "s1", 1), _turn("Gina: Anyone?", "s1", 2))
    after, enjoy = _remember(
        runtime, namespace, _turn(AFTER, "s1", 6), _turn("Jon: Enjoy!", "s1", 7)
    )
    assert _terms(runtime, after) == fulltext.indexed(namespace, AFTER, "Gina: Anyone?")
    [late] = _remember(runtime, namespace, _turn(REPLY, "s1", 4))
    assert _terms(runtime, late) == fulltext.indexed(namespace, REPLY, "Gina: Anyone?")
    assert _terms(runtime, after) == fulltext.indexed(namespace, AFTER, REPLY)
    assert _terms(runtime, enjoy) == fulltext.indexed(namespace, "Jon: Enjoy!", AFTER)  # as it was
    # none stored before it: no context, not the turns said after it; the first stored turn
    # is said after it now
    [opening] = _remember(runtime, namespace, _turn("Jon: Morning, Gina.", "s1", 0))
    assert _terms(runtime, opening) == fulltext.indexed(namespace, "Jon: Morning, Gina.")
    assert _terms(runtime, ask) == fulltext.indexed(namespace, ASK, "Jon: Morning, Gina.")


def test_late_turns_sent_together_reindex_the_stored_turn_after_the_last_of_them(
    runtime: Runtime, namespace: str
) -> None:
    _remember(runtime, namespace, _turn(ASK, "s1", 1))
    [after] = _remember(runtime, namespace, _turn(AFTER, "s1", 6))
    _remember(runtime, namespace, _turn("Gina: Anyone?", "s1", 3), _turn(REPLY, "s1", 4))
    assert _terms(runtime, after) == fulltext.indexed(namespace, AFTER, REPLY)


def test_a_late_turn_that_is_not_stored_lends_no_words(runtime: Runtime, namespace: str) -> None:
    """A late turn the store already holds (said in another session: NOOP) is not stored, and
    the stored turn after it keeps its words."""
    said = "Jon: Try the bakery on Rua Augusta."
    _remember(runtime, namespace, _turn(said, "s2", 1))
    _remember(runtime, namespace, _turn(ASK, "s1", 1))
    [after] = _remember(runtime, namespace, _turn(AFTER, "s1", 6))
    assert _terms(runtime, after) == fulltext.indexed(namespace, AFTER, ASK)
    written = writepath.remember(
        runtime.store, runtime.embedder, namespace, [_turn(said, "s1", 4)], policy=runtime.policy
    )
    assert not written[0].created
    assert _terms(runtime, after) == fulltext.indexed(namespace, AFTER, ASK)


def test_recall_finds_a_reply_by_what_it_answers(runtime: Runtime, namespace: str) -> None:
    _, reply, _ = _remember(
        runtime, namespace, _turn(ASK, "s1", 1), _turn(REPLY, "s1", 2), _turn(AFTER, "s1", 3)
    )

    def fulltext_score(config: CascadeConfig) -> float | None:
        """The reply's full-text score, None when recall does not return it."""
        result = retrieval.recall(
            runtime.store,
            runtime.embedder,
            namespace,
            retrieval.RecallRequest(context="sourdough", explain=True, include_gap=True),
            config,
        )
        found = {i.memory.id: i.explanation for i in result.items}
        explanation = found.get(reply)
        return None if explanation is None else explanation.fulltext

    with_context = fulltext_score(DEFAULT_CASCADE)
    assert with_context is not None and with_context > 0
    # the reply holds no query word and is far from the query's vector: only its context finds it
    assert fulltext_score(DEFAULT_CASCADE.changed(context_weight=0.0)) is None
    stronger = fulltext_score(DEFAULT_CASCADE.changed(context_weight=1.0))
    assert stronger is not None and stronger > with_context


def test_a_long_turn_neither_gives_nor_takes_a_context(runtime: Runtime, namespace: str) -> None:
    answer = "Assistant: " + "Here is a long answer about sourdough starters. " * 30
    assert len(answer) > context.MAX_CHARS
    ask, long_answer, thanks = _remember(
        runtime,
        namespace,
        _turn("User: How do I keep a sourdough starter alive?", "s1", 1),
        _turn(answer, "s1", 2),
        _turn("User: Thanks, that helps.", "s1", 3),
    )
    assert _terms(runtime, long_answer) == fulltext.indexed(namespace, answer)
    assert _terms(runtime, thanks) == fulltext.indexed(namespace, "User: Thanks, that helps.")
    assert _terms(runtime, ask) == fulltext.indexed(
        namespace, "User: How do I keep a sourdough starter alive?"
    )


def test_a_hard_forget_takes_its_words_out_of_the_turn_said_after_it(
    runtime: Runtime, namespace: str
) -> None:
    ask, reply, after = _remember(
        runtime, namespace, _turn(ASK, "s1", 1), _turn(REPLY, "s1", 2), _turn(AFTER, "s1", 3)
    )
    assert fulltext.term(namespace, "sourdough") in _terms(runtime, reply).split()
    memories.forget(runtime.store, namespace, ask, hard=True)
    # the reply is indexed by its own words again: nothing is found by the forgotten text's
    assert _terms(runtime, reply) == fulltext.indexed(namespace, REPLY)
    assert _terms(runtime, after) == fulltext.indexed(namespace, AFTER)
    found = runtime.store.read(
        "recall/fulltext_seeds",
        query=fulltext.query(namespace, ["sourdough"]),
        candidates=10,
        namespace=namespace,
        statuses=["active"],
        scopes=["global"],
        as_of=None,
    )
    assert found[0]["hits"] == []
    # a soft forget (archive, recoverable) leaves the index as it was
    beans = "Jon: Where do you buy your coffee beans these days?"
    roaster = "Gina: A roaster near the station, their Ethiopian blend."
    ask2, reply2 = _remember(runtime, namespace, _turn(beans, "s2", 1), _turn(roaster, "s2", 2))
    memories.forget(runtime.store, namespace, ask2)
    assert _terms(runtime, reply2) == fulltext.indexed(namespace, roaster, beans)
    assert fulltext.term(namespace, "coffee") in _terms(runtime, reply2).split()


def test_an_export_carries_the_words_each_memory_was_indexed_by(
    runtime: Runtime, namespace: str
) -> None:
    import io
    import json

    import pytest

    from hippograph.graph import transfer
    from hippograph.graph.errors import InvalidInput

    ask, reply, after = _remember(
        runtime, namespace, _turn(ASK, "s1", 1), _turn(REPLY, "s1", 2), _turn(AFTER, "s1", 3)
    )
    memories.forget(runtime.store, namespace, ask)  # soft: the reply keeps the asking words
    indexed = {i: _terms(runtime, i) for i in (ask, reply, after)}
    assert indexed[reply] == fulltext.indexed(namespace, REPLY, ASK)
    out = io.StringIO()
    transfer.export_to(runtime.store, out, namespace)
    lines = out.getvalue().splitlines()
    runtime.store.driver.execute_query(
        "MATCH (n) WHERE n.namespace = $ns DETACH DELETE n",
        ns=namespace,
        database_=runtime.store.database,
    )
    # a context that is not a string of words is refused, with nothing written
    bad = [
        json.dumps({**r, "props": {**r["props"], "context_words": 3}})
        if (r := json.loads(line))["kind"] == "memory"
        else line
        for line in lines
    ]
    with pytest.raises(InvalidInput, match=r"props\.context_words"):
        transfer.import_from(runtime.store, bad)
    assert runtime.store.read("memory/get_many", namespace=namespace, ids=[reply]) == []

    transfer.import_from(runtime.store, lines)
    assert {i: _terms(runtime, i) for i in indexed} == indexed
    [stored] = runtime.store.read("memory/get_many", namespace=namespace, ids=[reply])
    assert "context_words" not in stored["memory"]  # not a property of the node
    # and recall still finds the reply by what it answered
    found = retrieval.recall(
        runtime.store,
        runtime.embedder,
        namespace,
        retrieval.RecallRequest(context="sourdough bakery", k=1),
    )
    assert reply in [r.memory.id for r in found.items]


def test_a_memory_is_not_indexed_by_words_its_finders_may_not_see(
    runtime: Runtime, namespace: str
) -> None:
    private = replace(_turn(ASK, "s1", 1), scope="session", session_id="chat-7")
    # in one batch: a global reply takes nothing from the session-scoped turn before it (a
    # recall outside chat-7 would find it by them); a turn of chat-7 takes the global one's
    _, shared, same = _remember(
        runtime,
        namespace,
        private,
        _turn(REPLY, "s1", 2),
        replace(_turn(AFTER, "s1", 3), scope="session", session_id="chat-7"),
    )
    assert _terms(runtime, shared) == fulltext.indexed(namespace, REPLY)
    assert _terms(runtime, same) == fulltext.indexed(namespace, AFTER, REPLY)
    # turn by turn, from the stored turn before: another project's lends nothing, the same
    # project's does
    _remember(runtime, namespace, replace(_turn(ASK, "s2", 1), scope="project", project="p1"))
    [other] = _remember(
        runtime, namespace, replace(_turn(REPLY, "s2", 2), scope="project", project="p2")
    )
    [mine] = _remember(
        runtime, namespace, replace(_turn(AFTER, "s2", 3), scope="project", project="p2")
    )
    assert _terms(runtime, other) == fulltext.indexed(namespace, REPLY)
    assert _terms(runtime, mine) == fulltext.indexed(namespace, AFTER, REPLY)
