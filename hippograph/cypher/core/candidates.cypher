// Active memories of a namespace that may sit in its core block, with the evidence the rule
// weighs: type, confidence, importance (PageRank), explicit uses, confirmation.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status = 'active'
  AND m.memory_type IN $types
  AND (m.memory_type IN $by_type OR coalesce(m.access_count, 0) >= $min_uses
       OR m.confirmed_at IS NOT NULL)
RETURN m.id AS id, m.memory_type AS memory_type, m.content AS content,
       coalesce(m.confidence, 0.0) AS confidence, coalesce(m.importance, 0.0) AS importance,
       coalesce(m.access_count, 0) AS uses, m.confirmed_at IS NOT NULL AS confirmed
ORDER BY uses DESC, confidence DESC, id
LIMIT $limit
