// link/contradicts for many pairs at once, weight 1.0 (the write path and consolidation).
UNWIND $rows AS row
MATCH (a:Memory {id: row.from_id})
MATCH (b:Memory {id: row.to_id})
WITH a, b
WHERE a.namespace = $namespace AND b.namespace = $namespace
MERGE (a)-[r:CONTRADICTS]->(b)
ON CREATE SET r.at = $now, r.resolved = false, r.weight = 1.0
RETURN count(r) AS linked
