// For each row the newer memory supersedes the older, which is kept as history (the API's
// supersede, the write path and consolidation). WITH before the namespace checks: in one
// MATCH ... WHERE, ArcadeDB looks a node up by its namespace index instead of its id.
UNWIND $rows AS row
MATCH (old:Memory {id: row.old_id})
MATCH (new:Memory {id: row.new_id})
WITH old, new, row
WHERE old.namespace = $namespace AND new.namespace = $namespace
MERGE (new)-[r:SUPERSEDES]->(old)
ON CREATE SET r.at = $now, r.reason = row.reason
// The old fact held until the new one began (its event time; the supersede's own time when the
// new one is dated no later than the old), and the service learned it had ended at $now.
SET old.status = 'superseded', old.superseded_by = new.id, old.updated_at = $now,
    old.dedup_key = null, old.superseded_at = $now,
    old.valid_until = CASE WHEN new.created_at > old.created_at THEN new.created_at ELSE $now END
RETURN count(old) AS superseded
