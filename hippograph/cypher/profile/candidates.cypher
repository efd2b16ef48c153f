// Active memories a profile is drawn from: preferences, negative rules, corrections and facts
// (identity statements are picked out of these), and procedures with steps (skill proposals).
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status = 'active'
  AND m.memory_type IN ['preference', 'negative', 'correction', 'fact', 'procedure']
RETURN m.id AS id, m.memory_type AS memory_type, m.content AS content,
       coalesce(m.steps, []) AS steps, coalesce(m.access_count, 0) AS uses,
       coalesce(m.confidence, 0.0) AS confidence, m.confirmed_at IS NOT NULL AS confirmed,
       m.created_at AS created_at
ORDER BY m.created_at DESC, m.id
LIMIT $limit
