"""What differs between the graph backends, in one place. Nothing else branches on the backend.

Both speak Neo4j-dialect Cypher over Bolt. They differ in index DDL (ArcadeDB's Cypher has no
vector or full-text DDL, so its schema steps are ArcadeDB SQL files run through the embedded
engine), in index names, and in graph algorithms (GDS on Neo4j, computed in-process elsewhere).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Dialect:
    name: str
    vector_index: str
    # The vector index over a namespace's vocabulary (graph/vocabulary.py).
    word_index: str
    fulltext_index: str
    schema: tuple[str, ...]
    # Extra candidates fetched from the vector index per requested result: the index is global,
    # so namespace/status filtering happens after it.
    vector_oversample: int
    # Schema steps that only this backend needs (e.g. ArcadeDB declaring a typed property
    # before indexing it); the contract test accepts these as single-backend files.
    own_steps: tuple[str, ...] = ()
    # GDS may be present on Neo4j; jobs probe for it. Never available on ArcadeDB.
    may_have_gds: bool = False
    # The full-text index is over ``Memory.ft_terms``, words keyed by namespace (text/fulltext).
    # Postings a full-text query may score: its rarest words are kept while their document
    # frequencies in the namespace fit (`termstats`). None: the index skips what cannot rank,
    # no budget needed (frequencies are still counted, for BM25).
    fulltext_max_postings: int | None = None
    # vector.similarity.cosine is the raw cosine on ArcadeDB, (1 + cosine) / 2 on Neo4j:
    # statements write `$cosine_scale * vector.similarity.cosine(a, b) + $cosine_shift`.
    cosine_scale: float = 1.0
    cosine_shift: float = 0.0

    def params(self) -> dict[str, str | float]:
        """Index names and the cosine correction, passed to every statement as parameters."""
        return {
            "vector_index": self.vector_index,
            "word_index": self.word_index,
            "fulltext_index": self.fulltext_index,
            "cosine_scale": self.cosine_scale,
            "cosine_shift": self.cosine_shift,
        }


_COMMON_SCHEMA = (
    "schema/memory_id_unique",
    "schema/memory_dedup_unique",
    "schema/tag_uid_unique",
    "schema/cluster_id_unique",
    "schema/tombstone_id_unique",
    "schema/memory_namespace_index",
    "schema/memory_namespace_type_index",
    "schema/memory_standing_index",
    "schema/memory_status_index",
    "schema/memory_type_index",
    "schema/memory_hash_index",
    "schema/tombstone_hash_index",
    "schema/tag_namespace_index",
    "schema/memory_session_index",
    "schema/recall_session_uid_unique",
    "schema/episode_uid_unique",
    "schema/episode_namespace_index",
    "schema/episode_message_key_index",
    "schema/decision_id_unique",
    "schema/decision_memory_index",
    "schema/decision_target_index",
    "schema/remember_event_id_unique",
    "schema/edit_event_id_unique",
    "schema/consolidation_state_key_unique",
    "schema/consolidation_run_id_unique",
    "schema/job_lock_name_unique",
    "schema/job_run_id_unique",
    "schema/job_run_name_index",
    "schema/gap_key_unique",
    "schema/gap_namespace_index",
    "schema/core_block_namespace_unique",
    "schema/core_change_namespace_index",
    "schema/profile_namespace_unique",
    "schema/migration_name_unique",
    "schema/word_uid_unique",
    "schema/word_namespace_index",
    "schema/entity_uid_unique",
    "schema/entity_namespace_index",
    "schema/run_id_unique",
    "schema/run_namespace_index",
    "schema/tool_call_id_unique",
    "schema/tool_call_namespace_index",
)

_ARCADEDB_OWN = (
    "schema/memory_vertex_type",
    "schema/memory_embedding_property",
    "schema/memory_content_property",
)

NEO4J = Dialect(
    name="neo4j",
    vector_index="memory_embedding",
    word_index="word_embedding",
    fulltext_index="memory_terms",
    schema=(
        *_COMMON_SCHEMA,
        "schema/memory_embedding_index",
        "schema/word_embedding_index",
        "schema/memory_terms_index",
        "schema/memory_content_index_drop",
    ),
    vector_oversample=10,
    may_have_gds=True,
    cosine_scale=2.0,
    cosine_shift=-1.0,
)

ARCADEDB = Dialect(
    name="arcadedb",
    vector_index="Memory[embedding]",
    word_index="Word[embedding]",
    fulltext_index="Memory[ft_terms]",
    schema=(
        *_ARCADEDB_OWN,
        *_COMMON_SCHEMA,
        "schema/memory_embedding_index",
        "schema/word_embedding_index",
        "schema/memory_terms_index",
        "schema/memory_content_index_drop",
    ),
    vector_oversample=10,
    own_steps=_ARCADEDB_OWN,
    # It reads every posting of every word it is asked for twice (matching, then its own
    # BM25), ~1.7 us a posting at 100,000 memories: 2,000 postings cost ~3.5 ms of engine time,
    # 10,000 cost ~17 ms, more than the rest of a recall's statements. A word held by more
    # than 20 times the hits a query fetches (fulltext_hits x oversample, 100) cannot choose
    # among its holders by itself; it still scores the hits the rarer words find.
    fulltext_max_postings=2_000,
)

DIALECTS = {d.name: d for d in (NEO4J, ARCADEDB)}
