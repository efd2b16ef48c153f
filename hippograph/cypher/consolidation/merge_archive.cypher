UNWIND $rows AS row
MATCH (dup:Memory {id: row.dup})
WHERE dup.namespace = $namespace AND dup.status = 'active'
MATCH (keep:Memory {id: row.keep})
WHERE keep.namespace = $namespace
SET dup.status = 'archived', dup.archive_reason = row.reason, dup.merged_into = keep.id,
    dup.archived_at = $now, dup.updated_at = $now, dup.dedup_key = null
MERGE (dup)-[r:MERGED_INTO]->(keep)
ON CREATE SET r.at = $now, r.reason = row.reason
RETURN count(dup) AS archived
