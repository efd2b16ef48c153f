// Skips a memory used or rated since it was read: that write already set its confidence. The
// first SET takes the node's write lock (Neo4j), so the check reads the latest committed values.
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
SET m.confidence_checked_at = $as_of
WITH m, row
WHERE m.status = 'active' AND coalesce(m.access_count, 0) = row.access_count
  AND coalesce(m.initial_confidence, m.confidence) = row.initial
SET m.confidence = row.confidence, m.confidence_at = $as_of
RETURN count(m) AS updated
