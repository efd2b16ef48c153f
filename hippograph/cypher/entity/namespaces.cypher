// The namespaces that hold entities.
MATCH (e:Entity)
RETURN DISTINCT e.namespace AS namespace
ORDER BY namespace
