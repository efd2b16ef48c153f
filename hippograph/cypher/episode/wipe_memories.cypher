MATCH (m:Memory)
WHERE m.namespace = $namespace
DETACH DELETE m
RETURN count(*) AS deleted
