UNWIND $rows AS row
MATCH (keep:Memory {id: row.keep})
WHERE keep.namespace = $namespace AND keep.status = 'active'
SET keep.strength = coalesce(keep.strength, 1) + row.add_strength,
    keep.confidence = CASE WHEN row.confidence > keep.confidence THEN row.confidence
                           ELSE keep.confidence END,
    keep.updated_at = $now, keep.last_consolidated_at = $now
RETURN count(keep) AS kept
