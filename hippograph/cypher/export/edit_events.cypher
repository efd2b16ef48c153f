MATCH (e:EditEvent)
WHERE ($namespace IS NULL OR e.namespace = $namespace) AND e.id > $after
WITH e
ORDER BY e.id
LIMIT $limit
RETURN properties(e) AS props
