UNWIND $pairs AS pair
MATCH (a:Memory {id: pair.a})
WHERE a.namespace = $namespace AND a.status = 'active'
MATCH (b:Memory {id: pair.b})
WHERE b.namespace = $namespace AND b.status = 'active'
MERGE (a)-[r:RELATES_TO]->(b)
ON CREATE SET r.weight = $weight, r.confidence = $confidence, r.created_at = $now,
              r.last_reinforced_at = $now, r.kind = 'co_use', r.reinforced_count = 0
RETURN count(r) AS linked
