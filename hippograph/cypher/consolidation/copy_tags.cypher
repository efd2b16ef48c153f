UNWIND $rows AS row
MATCH (dup:Memory {id: row.dup})-[:HAS_TAG]->(t:Tag)
WHERE dup.namespace = $namespace
MATCH (keep:Memory {id: row.keep})
WHERE keep.namespace = $namespace
MERGE (keep)-[r:HAS_TAG]->(t)
ON CREATE SET r.created_at = $now, t.count = t.count + 1
RETURN count(r) AS copied
