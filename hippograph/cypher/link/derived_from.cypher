MATCH (a:Memory {id: $from_id})
WHERE a.namespace = $namespace
MATCH (b:Memory {id: $to_id})
WHERE b.namespace = $namespace
MERGE (a)-[r:DERIVED_FROM]->(b)
ON CREATE SET r.at = $now, r.weight = $weight
RETURN r.weight AS weight, 1.0 AS confidence
