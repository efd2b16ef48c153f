UNWIND $rows AS row
MATCH (a:Memory {id: row.a})-[r:CONTRADICTS]-(b:Memory {id: row.b})
WITH a, r, b, row
WHERE a.namespace = $namespace AND b.namespace = $namespace
SET r.resolved = true, r.resolution = row.resolution, r.resolved_at = $now
RETURN count(r) AS resolved
