// The survivor takes the retired memory's strength (read here, so a chain of merges in one
// run adds up) and the higher confidence.
UNWIND $rows AS row
MATCH (keep:Memory {id: row.keep})
MATCH (dup:Memory {id: row.dup})
WITH keep, dup
WHERE keep.namespace = $namespace AND keep.status = 'active' AND dup.namespace = $namespace
SET keep.strength = coalesce(keep.strength, 1) + coalesce(dup.strength, 1),
    keep.updated_at = $now, keep.last_consolidated_at = $now
RETURN count(keep) AS kept
