"""Representative parameters for the statement files, by parameter name.

Neo4j caches a plan by the statement's text and its parameters' types (Cypher manual, "Query
caches"), and plans a statement sent without one of its parameters with a "parameter missing"
notification (01N60) and nothing cached. So the start-up warm-up (``graph/recall/warmup.py``)
``EXPLAIN``s each recall statement with a value of the type recall sends for every parameter,
and the contract test (``tests/graph/store/test_notifications.py``) plans every statement
with them and fails on any WARNING the server returns.

Every ``$name`` of every statement file must be in ``SAMPLES`` (a fast test checks it), so a new
parameter gets a representative value when it is written. The values only need the right
types; ``EXPLAIN`` runs nothing.
"""

from __future__ import annotations

import re
from typing import Any

from hippograph.graph.store.queries import Query

_PARAMETER = re.compile(r"\$(\w+)")
_COMMENT = re.compile(r"//[^\n]*")
# A vector parameter stands in for an embedding: `dimensions` floats.
VECTOR = "<vector>"
_NOW = "2025-01-01T00:00:00+00:00"
_ID = "00000000-0000-0000-0000-000000000000"
_EID = "4:00000000-0000-0000-0000-000000000000:0"

SAMPLES: dict[str, Any] = {
    # Who and when.
    "namespace": "hippograph.samples", "now": _NOW, "as_of": None, "scope": "hippograph.samples",
    "scopes": ["global"], "scope_key": "global", "statuses": ["active"], "status": "active",
    "project": None, "session": "s", "session_id": None, "sessions": ["s"],
    "memory_type": None, "types": ["fact"], "by_type": ["preference"], "text": None,
    "tag_uid": None, "before": _NOW, "cutoff": _NOW, "expires_at": _NOW, "last_run_at": _NOW,
    "watermark": None, "valid_at": None, "identity": "identity: c", "condition": "c",
    # Identifiers.
    "id": _ID, "ids": [_ID], "memory_id": _ID, "memory_ids": [_ID], "from_id": _ID, "to_id": _ID,
    "tombstone_id": _ID, "cluster_id": _ID, "eid": _EID, "eids": [_EID], "uid": "u",
    "uids": ["u"], "key": "k", "keys": ["k"], "hashes": ["h"], "body_hash": "h",
    "migration": "m", "job": "pagerank", "holder": "h",
    "trigger": "schedule", "run": {"id": _ID, "name": "pagerank"}, "event": {"id": _ID},
    "resumed_from": None, "cursor": None, "error": None, "counts": "{}", "reason": "r",
    "decider": "rules", "extractor": "rules", "kind": "co_recall",
    # Paging.
    "after": "", "after_id": _ID, "after_created": None, "after_session": None, "after_at": None,
    "after_index": 0, "first": 10, "limit": 10, "k": 10, "speaker_k": 3, "candidates": 100,
    "per_word": 10, "fan_out": 10, "members": 5, "depth": 3, "total": 1, "done": 0,
    "batch": "b", "version": 1, "generation": 1,
    # Numbers of the algorithms.
    "alpha": 0.5, "cap": 1001, "delta": 0.1, "weight": 1.0, "confidence": 0.5,
    "floor": 0.2, "edge_floor": 0.2, "share": 0.5, "best_score": 0.1, "max_confidence": 0.3,
    "max_strength": 1, "max_base": 0.5, "max_cluster_size": 50, "max_tag_degree": 50,
    "min_uses": 2, "helpful": True, "force": False, "with_speakers": True,
    "damping": 0.85, "max_iterations": 20, "tolerance": 1e-7, "graph_name": "g",
    # Text and vectors.
    "embedding": VECTOR, "context_embedding": VECTOR, "query": "ns_word", "context": "c",
    "neutral_embedding": VECTOR, "number_keys": ["k"], "relation_keys": ["k"],
    "speaker": None, "terms": ["ns_word"], "exclude": [_ID],
    "words": [{"term": "ns_word", "word": "word", "weight": 1.0}],
    "fulltext": [{"id": _ID, "eid": _EID, "ft": 1.0}],
    "pool": [{"id": _ID, "eid": _EID, "ft": 1.0}],
    "frontier": [[_EID, _ID]], "scored_ids": [[_EID, _ID]],
    "surfaced": [_ID], "entries": "[]", "skills": "[]",
    # Agent runs (graph/runs): their steps and tool calls.
    "run_id": _ID, "task": "t", "agent": None, "thought": "t", "action": "a", "observation": "o",
    "step": None, "tool": None, "arguments": "{}", "result": None, "duration_ms": None,
    "outcome": "o", "success": None, "path_key": "k", "route_key": "k", "min_similarity": 0.6,
    "failed": ["failure"],
    # Entities (graph/entities): people, places and things, and the memories that mention them.
    "entity": "Ana", "names": ["ana"], "from_uid": "u", "into_uid": "u", "current": False,
    "description": "d", "max_degree": 50, "keep_stated": True, "max_entity_degree": 50,
    "per_entity": 5,
    "entities": [
        {"uid": "u", "name": "Ana", "canonical": "ana", "kind": "person", "cued": True,
         "aliases": ["ana"], "first": _NOW, "last": _NOW,
         "mentions": [{"memory_id": _ID, "role": "subject"}]}
    ],
    # Batches of rows: their fields differ by statement; the planner needs only a list of maps.
    "rows": [{"id": _ID}], "memories": [{"id": _ID}], "clusters": [{"id": _ID}],
    "groups": [{"source": _ID, "edges": {}}], "pairs": [{"a": _ID, "b": _ID, "times": 1}],
    "uses": [{"id": _ID, "times": 1}], "tags": [{"name": "t", "memory_ids": [_ID]}],
    "added": ["w"], "removed": ["w"],
    # The dialect's own (Dialect.params) are merged in by Store; listed for the completeness check.
    "vector_index": "", "word_index": "", "fulltext_index": "", "cosine_scale": 1.0,
    "cosine_shift": 0.0,
}  # fmt: skip
"""Parameter name -> a value of the type the service sends for it (see the module)."""


def names(query: Query) -> list[str]:
    """The parameters ``query`` uses (comments left out), in order of first use."""
    return list(dict.fromkeys(_PARAMETER.findall(_COMMENT.sub("", query.text))))


def parameters(query: Query, *, dimensions: int) -> dict[str, Any]:
    """Representative values for every parameter of ``query`` (vectors of ``dimensions``
    floats); a name missing from ``SAMPLES`` raises KeyError naming it and the statement."""
    values: dict[str, Any] = {}
    for name in names(query):
        if name not in SAMPLES:
            raise KeyError(f"{query.name}: no representative value for ${name} in SAMPLES")
        value = SAMPLES[name]
        values[name] = [0.1] * dimensions if value == VECTOR else value
    return values
