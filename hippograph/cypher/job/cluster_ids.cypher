MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status = 'active' AND m.embedding IS NOT NULL
RETURN m.id AS id
