// Skips a memory changed since the plan read it. The first SET takes the node's write lock
// (Neo4j), so the check reads the latest committed values.
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
SET m.archive_checked_at = $now
WITH m, row
WHERE m.status = 'active' AND m.updated_at = row.updated_at
SET m.status = 'archived', m.archive_reason = 'weak', m.archived_at = $now,
    m.updated_at = $now, m.dedup_key = null
RETURN m.id AS id
