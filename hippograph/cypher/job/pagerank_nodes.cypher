MATCH (m:Memory)
WHERE m.status = 'active' AND ($namespace IS NULL OR m.namespace = $namespace)
RETURN m.id AS id, m.namespace AS namespace, m.pagerank AS score, m.importance AS importance
