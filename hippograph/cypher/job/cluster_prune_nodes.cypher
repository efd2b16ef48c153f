MATCH (c:Cluster)
WHERE c.namespace = $namespace AND coalesce(c.generation, '') <> $generation
WITH c
LIMIT $limit
DETACH DELETE c
RETURN count(*) AS deleted
