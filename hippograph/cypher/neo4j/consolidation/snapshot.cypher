// The first SET takes each node's write lock (Neo4j reads committed data without locking), so
// the plan's check sees the latest committed values and nothing changes them until commit.
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
SET m.consolidation_checked_at = $now
RETURN m.id AS id, m.status AS status, m.updated_at AS updated_at
