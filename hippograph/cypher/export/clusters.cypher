MATCH (c:Cluster)
WHERE $namespace IS NULL OR c.namespace = $namespace
RETURN properties(c) AS props
ORDER BY c.id
