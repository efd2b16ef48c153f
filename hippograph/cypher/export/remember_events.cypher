MATCH (r:RememberEvent)
WHERE ($namespace IS NULL OR r.namespace = $namespace) AND r.id > $after
WITH r
ORDER BY r.id
LIMIT $limit
RETURN properties(r) AS props
