UNWIND $pairs AS pair
MATCH (m:Memory {id: pair.memory_id})
WHERE m.namespace = $namespace
MATCH (e:Episode {uid: pair.episode_uid})
WHERE e.namespace = $namespace
MERGE (m)-[r:DERIVED_FROM]->(e)
ON CREATE SET r.at = $now, r.weight = 1.0
RETURN count(r) AS linked
