MATCH (t:Tag)
WHERE $namespace IS NULL OR t.namespace = $namespace
RETURN properties(t) AS props
ORDER BY t.uid
