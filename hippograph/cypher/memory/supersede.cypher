MATCH (old:Memory {id: $old_id})
WHERE old.namespace = $namespace
MATCH (new:Memory {id: $new_id})
WHERE new.namespace = $namespace
MERGE (new)-[r:SUPERSEDES]->(old)
ON CREATE SET r.at = $now, r.reason = $reason
SET old.status = 'superseded', old.superseded_by = new.id, old.updated_at = $now,
    old.dedup_key = null
RETURN old.id AS old_id, new.id AS new_id
