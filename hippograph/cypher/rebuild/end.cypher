MATCH (r:RebuildState)
WHERE r.namespace = $namespace
DELETE r
RETURN count(*) AS ended
