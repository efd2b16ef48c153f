MATCH (d:Decision)
WHERE d.namespace = $namespace
DETACH DELETE d
RETURN count(*) AS deleted
