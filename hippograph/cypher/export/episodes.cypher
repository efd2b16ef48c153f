MATCH (e:Episode)
WHERE ($namespace IS NULL OR e.namespace = $namespace) AND e.uid > $after
WITH e
ORDER BY e.uid
LIMIT $limit
RETURN properties(e) AS props
