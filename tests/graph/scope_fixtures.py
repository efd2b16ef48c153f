"""A namespace holding one memory of each scope, wired so that every read path can reach each
of them: linked to the global one (neighbourhood), in one cluster (clusters), derived from one
turn through the session memory (provenance), mentioning entities (entity, entities)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from hippograph.graph import memories
from hippograph.graph.model import NewMemory
from hippograph.graph.runtime import Runtime
from hippograph.graph.write import writepath
from hippograph.graph.write.append import append
from hippograph.graph.write.messages import NewTurn

GLOBAL = "The Orion release ships on the first Monday of the month"
SESSION_A = "Ines Marques keeps the Orion signing key in the blue safe"
SESSION_B = "Tomas Ferreira reviews the Orion release notes on Fridays"
PROJECT = "Orion builds run on the Kestrel cluster with Rafael Duarte"
# (project, session) of a caller -> which of the four it sees, as recall does.
CALLERS: dict[tuple[str | None, str | None], set[str]] = {
    (None, None): {"global"},
    (None, "chat-a"): {"global", "session_a"},
    (None, "chat-b"): {"global", "session_b"},
    ("orion", "chat-b"): {"global", "session_b", "project"},
    ("zeus", "chat-a"): {"global", "session_a"},
}


@dataclass(frozen=True)
class Seeded:
    ids: dict[str, str]  # global, session_a, session_b, project -> memory id
    cluster: str
    turn: str  # the id of the turn the session-A memory was derived from

    def name(self, memory_id: str) -> str | None:
        return next((k for k, v in self.ids.items() if v == memory_id), None)


def seed(rt: Runtime, ns: str) -> Seeded:
    done = writepath.remember(rt.store, rt.embedder, ns, [
        NewMemory(content=GLOBAL),
        NewMemory(content=SESSION_A, scope="session", session_id="chat-a"),
        NewMemory(content=SESSION_B, scope="session", session_id="chat-b"),
        NewMemory(content=PROJECT, scope="project", project="orion", session_id="chat-a"),
    ], policy=rt.policy)  # fmt: skip
    ids = dict(zip(("global", "session_a", "session_b", "project"),
                   (r.memory.id for r in done), strict=True))  # fmt: skip
    for other in ("session_a", "session_b", "project"):
        memories.link(rt.store, ns, ids["global"], ids[other], "RELATES_TO")
    said = NewTurn(session_id="chat-a", role="user", text="Where is the signing key kept?")
    turn = append(rt.store, ns, [said], policy=rt.policy)[0]
    cluster = str(uuid.uuid4())
    rt.store.driver.execute_query(
        "CREATE (c:Cluster {id: $cluster, namespace: $ns, label: 'orion', size: 4}) "
        "WITH c UNWIND $ids AS id MATCH (m:Memory {id: id}) "
        "CREATE (m)-[:IN_CLUSTER {score: 1.0}]->(c)",
        cluster=cluster, ns=ns, ids=list(ids.values()), database_=rt.store.database,
    )  # fmt: skip
    # The global memory was derived through the session memory from the turn (provenance).
    rt.store.driver.execute_query(
        "MATCH (a:Memory {id: $a}), (e:Episode {id: $turn}) CREATE (a)-[:DERIVED_FROM]->(e) "
        "WITH a MATCH (g:Memory {id: $g}) CREATE (g)-[:DERIVED_FROM]->(a)",
        a=ids["session_a"], g=ids["global"], turn=turn.id, database_=rt.store.database,
    )  # fmt: skip
    return Seeded(ids=ids, cluster=cluster, turn=turn.id)
