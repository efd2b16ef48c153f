MATCH (m:Memory)
WHERE ($namespace IS NULL OR m.namespace = $namespace) AND m.status = 'active'
  AND m.confidence < $max_confidence AND coalesce(m.strength, 1) <= $max_strength
RETURN m.id AS id, m.namespace AS namespace, m.content AS content, m.updated_at AS updated_at
ORDER BY m.id
