"""The ledger (#41): messages as platforms send them, sessions read as conversations, and
erasure that reaches what was derived. Contract tests: they run on the embedded engine and,
with HIPPOGRAPH_TEST_NEO4J_URI set, on Neo4j."""

from __future__ import annotations

import json

import pytest

from hippograph.graph import memories, sessions
from hippograph.graph.errors import InvalidInput, TurnConflict
from hippograph.graph.model import MemoryFilter, NewMemory, ToolCall, ToolResult
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import episodes, erasure, rebuild, writepath
from hippograph.graph.write.episodes import NewTurn


def ingest(rt: Runtime, ns: str, *turns: NewTurn, flush: bool = True) -> episodes.IngestResult:
    return episodes.ingest(rt.store, rt.embedder, ns, list(turns), policy=rt.policy, flush=flush)


def contents(rt: Runtime, ns: str) -> list[str]:
    page = memories.list_memories(rt.store, ns, MemoryFilter(status=None), first=500)
    return sorted(m.content for m in page.items)


def test_messages_are_stored_as_sent_and_appended_in_order(
    any_runtime: Runtime, namespace: str
) -> None:
    rt = any_runtime
    call = ToolCall(id="call_1", name="get_weather", arguments='{"city": "Lisbon"}')
    sent = [
        NewTurn(session_id="s1", role="user", text="  What's the weather in Lisbon?\n\t"),
        NewTurn(session_id="s1", role="assistant", text="", tool_calls=(call,),
                metadata={"platform": {"id": "msg_9", "tags": ["a", 1]}}, message_id="m-2"),
        NewTurn(session_id="s1", role="tool", tool_results=(
            ToolResult(call_id="call_1", content="Ana's secret ledger says 31C", status="ok"),)),
        NewTurn(session_id="s1", role="assistant", text="It is 31C in Lisbon 🌞."),
    ]  # fmt: skip
    done = ingest(rt, namespace, *sent)
    assert (done.stored, done.duplicates) == (4, 0)
    assert [(t.turn_index, t.outcome) for t in done.turns] == [
        (0, "stored"), (1, "stored"), (2, "stored"), (3, "stored")
    ]  # fmt: skip
    page = sessions.conversation(rt.store, namespace, "s1")
    assert [e.id for e in page.turns] == [t.id for t in done.turns]
    first, calling, tool, last = page.turns
    assert first.text == "  What's the weather in Lisbon?\n\t" and first.role == "user"
    assert calling.text == "" and calling.tool_calls == (call,) and calling.message_id == "m-2"
    assert calling.metadata == {"platform": {"id": "msg_9", "tags": ["a", 1]}}
    assert tool.tool_results[0].content == "Ana's secret ledger says 31C"
    assert last.text == "It is 31C in Lisbon 🌞."
    # The tool's answer and the call's arguments go to the log, not to memories.
    assert not [c for c in contents(rt, namespace) if "ledger" in c or "city" in c]

    # Sent again (a platform re-sends the transcript): the message id, and the place of
    # an explicit index, make duplicates; a new message without an index goes after the last.
    thanks = NewTurn(session_id="s1", role="user", text="Thanks!", message_id="m-5")
    again = ingest(rt, namespace, sent[1], thanks)
    assert [(t.turn_index, t.outcome) for t in again.turns] == [(1, "duplicate"), (4, "stored")]
    assert again.turns[0].id == done.turns[1].id
    with pytest.raises(TurnConflict):
        ingest(rt, namespace, NewTurn(session_id="s1", role="user", text="other", message_id="m-5"))


def test_one_bad_message_rejects_the_batch_naming_its_index(
    any_runtime: Runtime, namespace: str
) -> None:
    rt = any_runtime
    good = NewTurn(session_id="s1", role="user", text="hello there")
    cases = [
        (NewTurn(session_id="s1", role="assistant",
                 tool_calls=(ToolCall(id="c1", name="x" * 300),)), "turns[1].toolCalls[0].name"),
        (NewTurn(session_id="s1", role="user", metadata={"k": "v" * 20000}), "turns[1].metadata"),
        (NewTurn(session_id="s1", role="tool",
                 tool_results=(ToolResult(call_id="c1", status="maybe"),)),
         "turns[1].toolResults[0].status"),
        (NewTurn(session_id="s1", role="robot", text="hi"), "turns[1].role"),
        (NewTurn(session_id="s1", role="user", text="hi", message_id=""), None),
    ]  # fmt: skip
    for bad, field in cases:
        if field is None:  # an empty message id is no id: accepted
            continue
        with pytest.raises(InvalidInput) as err:
            ingest(rt, namespace, good, bad)
        assert err.value.field == field
    assert sessions.conversation(rt.store, namespace, "s1").turns == ()


def test_sessions_and_conversation_pages_both_ways(any_runtime: Runtime, namespace: str) -> None:
    rt = any_runtime
    ingest(rt, namespace, *[NewTurn(session_id="a", speaker="Ana" if i % 2 else None,
                                    role="user", text=f"line {i}") for i in range(5)],
           flush=False)  # fmt: skip
    ingest(rt, namespace, NewTurn(session_id="b", role="assistant", text="other"), flush=False)
    listed = sessions.sessions(rt.store, namespace)
    assert [(s.session_id, s.turns) for s in listed.items] == [("b", 1), ("a", 5)]
    a = listed.items[1]
    assert a.participants == ("Ana", "user") and (a.first_index, a.last_index) == (0, 4)
    assert a.first_at <= a.last_at
    one = sessions.sessions(rt.store, namespace, first=1)
    assert [s.session_id for s in one.items] == ["b"] and one.next_cursor
    rest = sessions.sessions(rt.store, namespace, first=1, after=one.next_cursor)
    assert [s.session_id for s in rest.items] == ["a"] and rest.next_cursor is None

    forward = sessions.conversation(rt.store, namespace, "a", first=2)
    assert [e.text for e in forward.turns] == ["line 0", "line 1"]
    forward2 = sessions.conversation(rt.store, namespace, "a", first=2, after=forward.next_cursor)
    assert [e.text for e in forward2.turns] == ["line 2", "line 3"]
    back = sessions.conversation(rt.store, namespace, "a", first=3, direction="backward")
    assert [e.text for e in back.turns] == ["line 4", "line 3", "line 2"]
    back2 = sessions.conversation(
        rt.store, namespace, "a", first=3, after=back.next_cursor, direction="backward"
    )
    assert [e.text for e in back2.turns] == ["line 1", "line 0"] and back2.next_cursor is None
    assert sessions.conversation(rt.store, namespace, "none").turns == ()
    with pytest.raises(InvalidInput) as err:
        sessions.conversation(rt.store, namespace, "a", direction="sideways")
    assert err.value.field == "direction"


def test_erasing_a_turn_takes_what_only_it_said(any_runtime: Runtime, namespace: str) -> None:
    rt = any_runtime
    done = ingest(
        rt, namespace,
        NewTurn(session_id="s1", speaker="Ana", text="I keep my savings at Quokkabank."),
        NewTurn(session_id="s1", speaker="Ana", text="I love hiking in the Alps."),
        NewTurn(session_id="s1", speaker="Ana", text="My sister lives in Porto."),
    )  # fmt: skip
    before = contents(rt, namespace)
    assert any("Quokkabank" in c for c in before)
    gone = erasure.erase(rt.store, namespace, turn_ids=[done.turns[0].id])
    assert (gone.turns, gone.memories) == (1, 1) and gone.decisions >= 1
    after = contents(rt, namespace)
    assert not any("Quokkabank" in c for c in after) and len(after) == len(before) - 1
    left = sessions.conversation(rt.store, namespace, "s1").turns
    assert [e.turn_index for e in left] == [1, 2]
    # Deleting it again finds nothing; sending the transcript again does not bring it back.
    assert erasure.erase(rt.store, namespace, turn_ids=[done.turns[0].id]).turns == 0
    resent = ingest(rt, namespace, NewTurn(session_id="s1", speaker="Ana", turn_index=0,
                                           text="I keep my savings at Quokkabank."))  # fmt: skip
    assert (resent.erased, resent.stored) == (1, 0)
    assert not any("Quokkabank" in c for c in contents(rt, namespace))
    # A new message after the erasure is appended after the session's last turn.
    later = ingest(rt, namespace, NewTurn(session_id="s1", speaker="Ana", text="Bye."))
    assert later.turns[0].turn_index == 3


def test_erasing_a_subject_reaches_turns_memories_and_the_remember_log(
    any_runtime: Runtime, namespace: str
) -> None:
    rt = any_runtime
    ingest(
        rt, namespace,
        NewTurn(session_id="s1", speaker="Ana", text="My passport is in the Zorblat folder."),
        NewTurn(session_id="s2", speaker="Ana", text="I prefer window seats."),
    )  # fmt: skip
    writepath.remember(rt.store, rt.embedder, namespace, [
        NewMemory(content="The Zorblat folder sits in the blue drawer", tags=("zorblat",)),
        NewMemory(content="Ana flies to Oslo in May"),
    ], policy=rt.policy)  # fmt: skip
    plan = erasure.erase(rt.store, namespace, text="zorblat", dry_run=True)
    assert plan.dry_run and (plan.turns, plan.memories) == (1, 2)
    assert any("Zorblat" in c for c in contents(rt, namespace))
    gone = erasure.erase(rt.store, namespace, text="ZORBLAT")
    assert (gone.turns, gone.memories, gone.remember_items) == (1, 2, 1)
    assert gone.tags >= 1  # "zorblat", and the tags inferred from the erased memories alone
    assert not any("orblat" in c.lower() for c in contents(rt, namespace))
    assert sessions.sessions(rt.store, namespace).items[0].session_id == "s2"
    tags = [t.name for t in memories.list_tags(rt.store, namespace)]
    assert "zorblat" not in tags
    events = rt.store.read("episode/remember_events", namespace=namespace)
    assert all("orblat" not in raw.lower() for e in events for raw in e["items"])

    # Rebuild replays the log, which holds neither; the other remember item comes back.
    rebuild.rebuild(rt.store, rt.embedder, namespace, policy=rt.policy)
    rebuilt = contents(rt, namespace)
    assert not any("orblat" in c.lower() for c in rebuilt)
    assert "Ana flies to Oslo in May" in rebuilt and any("window" in c for c in rebuilt)


def test_clearing_a_session_keeps_memories_another_turn_confirms(
    any_runtime: Runtime, namespace: str
) -> None:
    rt = any_runtime
    ingest(
        rt, namespace,
        NewTurn(session_id="s1", speaker="Ana", text="I am allergic to peanuts."),
        NewTurn(session_id="s1", speaker="Ana", text="My cat is called Miso."),
        NewTurn(session_id="s2", speaker="Ana", text="I am allergic to peanuts."),
    )  # fmt: skip
    gone = erasure.erase(rt.store, namespace, session_id="s1")
    assert (gone.turns, gone.memories, gone.kept) == (2, 1, 1)
    left = contents(rt, namespace)
    assert any("peanuts" in c for c in left) and not any("Miso" in c for c in left)
    assert [s.session_id for s in sessions.sessions(rt.store, namespace).items] == ["s2"]
    # A cleared session takes new messages, from index 0.
    fresh = ingest(rt, namespace, NewTurn(session_id="s1", role="user", text="Starting over."))
    assert fresh.turns[0].turn_index == 0
    with pytest.raises(InvalidInput) as err:
        erasure.erase(rt.store, namespace)
    assert err.value.field == "turnIds"
    decisions = rt.store.read("export/decisions", namespace=namespace, after="", limit=1000)
    assert all("Miso" not in json.dumps(r) for r in decisions)


def test_search_sees_what_recall_sees(any_runtime: Runtime, namespace: str) -> None:
    rt = any_runtime
    writepath.remember(rt.store, rt.embedder, namespace, [
        NewMemory(content="Agent A's scratch note: the build cache lives in /tmp/a",
                  scope="session", session_id="agent-a"),
        NewMemory(content="The build cache of project p lives in /srv/cache",
                  scope="project", project="p"),
        NewMemory(content="Build caches are cleared on Sundays"),
    ], policy=rt.policy)  # fmt: skip

    def found(project: str | None = None, session_id: str | None = None) -> set[str]:
        hits = memories.search(rt.store, rt.embedder, namespace, "where is the build cache", 10,
                               project=project, session_id=session_id)  # fmt: skip
        return {h.memory.content.split(" ")[0] for h in hits}

    assert found() == {"Build"}
    assert found(session_id="agent-b") == {"Build"}
    assert found(session_id="agent-a") == {"Build", "Agent"}
    assert found(project="p", session_id="agent-b") == {"Build", "The"}
