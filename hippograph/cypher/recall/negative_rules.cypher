// $scopes: the scope keys the recall sees (graph.model.scopes; why a stored key: recall/expand).
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.memory_type = 'negative' AND m.status = 'active'
  AND m.trigger_patterns IS NOT NULL
  AND m.scope_key IN $scopes
RETURN m.id AS id, elementId(m) AS eid, m.trigger_patterns AS patterns
LIMIT $limit
