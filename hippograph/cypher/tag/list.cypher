MATCH (t:Tag)
WHERE t.namespace = $namespace AND t.count > 0
RETURN t.name AS name, t.count AS count, t.description AS description
ORDER BY t.count DESC, t.name
LIMIT $limit
