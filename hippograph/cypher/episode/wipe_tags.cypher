MATCH (t:Tag)
WHERE t.namespace = $namespace
DETACH DELETE t
RETURN count(*) AS deleted
