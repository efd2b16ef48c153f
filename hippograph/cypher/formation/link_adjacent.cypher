// Consecutive turns of one session: RELATES_TO {kind: 'adjacent'}, created once, then stamped.
UNWIND $pairs AS pair
MATCH (a:Memory {id: pair.from_id})
WHERE a.namespace = $namespace
MATCH (b:Memory {id: pair.to_id})
WHERE b.namespace = $namespace
MERGE (a)-[r:RELATES_TO]->(b)
ON CREATE SET r.weight = pair.weight, r.confidence = 1.0, r.kind = 'adjacent',
              r.created_at = $now, r.last_reinforced_at = $now
RETURN count(r) AS linked
