MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.memory_type = 'negative' AND m.status = 'active'
  AND m.trigger_patterns IS NOT NULL
  AND (m.scope = 'global' OR (m.scope = 'project' AND m.project = $project)
       OR (m.scope = 'session' AND m.session_id = $session_id))
RETURN m.id AS id, elementId(m) AS eid, m.trigger_patterns AS patterns
LIMIT $limit
