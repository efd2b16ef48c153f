// The check is atomic on ArcadeDB (MVCC fails a commit whose records changed since they were
// read); Neo4j takes the write lock first (cypher/neo4j/job/edges_write.cypher).
// Skips an edge reinforced since it was read: its decay starts over from that reinforcement.
UNWIND $rows AS row
MATCH (a:Memory {id: row.source})-[r:RELATES_TO]->(b:Memory {id: row.target})
WHERE coalesce(r.last_reinforced_at, r.created_at) = row.anchor
SET r.confidence = row.confidence, r.decay_anchor = row.anchor, r.decay_windows = row.windows,
    r.decayed_at = $as_of
RETURN count(r) AS updated
