UNWIND $pairs AS pair
MATCH (m:Memory {id: pair.memory_id})
WHERE m.namespace = $namespace
MERGE (t:Tag {uid: $namespace + '|' + pair.tag})
ON CREATE SET t.name = pair.tag, t.namespace = $namespace, t.count = 0, t.created_at = $now
MERGE (m)-[r:HAS_TAG]->(t)
ON CREATE SET r.created_at = $now, t.count = t.count + 1
RETURN count(r) AS attached
