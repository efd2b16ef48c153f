MATCH (m:Memory)
WHERE ($namespace IS NULL OR m.namespace = $namespace) AND m.id > $after
WITH m
ORDER BY m.id
LIMIT $limit
RETURN properties(m) AS props
