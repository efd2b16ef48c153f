UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE m.namespace = $namespace
SET m.confidence = row.confidence, m.initial_confidence = row.initial,
    m.last_accessed = coalesce(row.last_accessed, m.last_accessed),
    m.confirmed_at = coalesce(row.confirmed_at, m.confirmed_at)
RETURN count(m) AS updated
