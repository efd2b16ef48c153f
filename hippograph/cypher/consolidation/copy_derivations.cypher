UNWIND $rows AS row
MATCH (dup:Memory {id: row.dup})-[:DERIVED_FROM]->(e:Episode)
WHERE dup.namespace = $namespace
MATCH (keep:Memory {id: row.keep})
WHERE keep.namespace = $namespace
MERGE (keep)-[r:DERIVED_FROM]->(e)
ON CREATE SET r.at = $now, r.weight = 1.0
RETURN count(r) AS copied
