MATCH (m:Memory)-[r:IN_CLUSTER]->(c:Cluster)
WHERE c.namespace = $namespace AND coalesce(r.generation, '') <> $generation
WITH r
LIMIT $limit
DELETE r
RETURN count(*) AS deleted
