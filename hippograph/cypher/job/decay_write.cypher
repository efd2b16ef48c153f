// The check is atomic on ArcadeDB (MVCC fails a commit whose records changed since they were
// read); Neo4j takes the write lock first (cypher/neo4j/job/decay_write.cypher).
// Skips a memory used or rated since it was read: that write already set its confidence.
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE m.status = 'active' AND coalesce(m.access_count, 0) = row.access_count
  AND coalesce(m.initial_confidence, m.confidence) = row.initial
SET m.confidence = row.confidence, m.confidence_at = $as_of
RETURN count(m) AS updated
