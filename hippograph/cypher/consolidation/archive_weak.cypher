// The check is atomic on ArcadeDB (MVCC fails a commit whose records changed since they were
// read); Neo4j takes the write lock first (cypher/neo4j/consolidation/archive_weak.cypher).
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE m.status = 'active' AND m.updated_at = row.updated_at
SET m.status = 'archived', m.archive_reason = 'weak', m.archived_at = $now,
    m.updated_at = $now, m.dedup_key = null
RETURN m.id AS id
