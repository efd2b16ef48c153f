// Relevance verification rejected these memories for a context: a gentle decay of the base
// confidence (decay recomputes from it) and of the current one, counted.
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WITH m, row
WHERE m.namespace = $namespace AND m.status = 'active'
SET m.rejected_count = coalesce(m.rejected_count, 0) + row.times,
    m.last_rejected_at = $now,
    m.initial_confidence = coalesce(m.initial_confidence, m.confidence) * row.factor,
    m.confidence = m.confidence * row.factor
RETURN count(m) AS touched
