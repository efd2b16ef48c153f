MATCH (c:Cluster)
WHERE $namespace IS NULL OR c.namespace = $namespace
RETURN DISTINCT c.namespace AS namespace
