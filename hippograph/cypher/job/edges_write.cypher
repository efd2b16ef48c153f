// $groups: one entry per source memory, {source, edges: {target id: {anchor, windows,
// confidence}}}; each source is found once and its edges walked.
// The check is atomic on ArcadeDB (MVCC fails a commit whose records changed since they were
// read); Neo4j takes the write lock first (cypher/neo4j/job/edges_write.cypher).
// Skips an edge reinforced since it was read: its decay starts over from that reinforcement.
UNWIND $groups AS g
MATCH (a:Memory {id: g.source})-[r:RELATES_TO]->(b:Memory)
WITH r, g.edges[b.id] AS row
WHERE row IS NOT NULL AND coalesce(r.last_reinforced_at, r.created_at) = row.anchor
SET r.confidence = row.confidence, r.decay_anchor = row.anchor, r.decay_windows = row.windows,
    r.decayed_at = $as_of
RETURN count(r) AS updated
