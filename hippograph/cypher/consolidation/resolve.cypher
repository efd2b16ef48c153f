MATCH (a:Memory {id: $a})-[r:CONTRADICTS]-(b:Memory {id: $b})
WHERE a.namespace = $namespace AND b.namespace = $namespace
SET r.resolved = true, r.resolution = $resolution, r.resolved_at = $now
RETURN count(r) AS resolved
