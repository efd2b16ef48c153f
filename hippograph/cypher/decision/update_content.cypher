UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WHERE m.namespace = $namespace AND m.status = 'active'
SET m.history = coalesce(m.history, []) + [row.previous],
    m.content = row.content,
    m.ft_terms = row.ft_terms,
    m.applies_when = row.applies_when,
    m.standing_in = row.standing_in,
    m.vocabulary = null,
    m.content_hash = row.content_hash,
    m.dedup_key = row.dedup_key,
    m.embedding = row.embedding,
    m.provenance = row.provenance,
    m.confidence = CASE WHEN row.confidence > m.confidence THEN row.confidence
                        ELSE m.confidence END,
    m.updated_at = $now,
    m.last_decision = row.decision_id
RETURN m.id AS id
