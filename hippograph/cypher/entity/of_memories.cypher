// The entities the memories mention (what an erasure or a hard forget may leave empty).
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WITH m
WHERE m.namespace = $namespace
MATCH (m)-[:MENTIONS]->(e:Entity)
RETURN collect(DISTINCT e.uid) AS uids
