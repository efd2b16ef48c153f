MATCH (m:Memory)
WHERE m.status = 'active' AND ($namespace IS NULL OR m.namespace = $namespace)
RETURN DISTINCT m.namespace AS namespace
