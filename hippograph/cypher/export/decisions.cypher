MATCH (d:Decision)
WHERE ($namespace IS NULL OR d.namespace = $namespace) AND d.id > $after
WITH d
ORDER BY d.id
LIMIT $limit
RETURN properties(d) AS props
