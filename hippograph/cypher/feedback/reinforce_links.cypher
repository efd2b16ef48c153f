// Either direction counts: relatedness is symmetric.
UNWIND $pairs AS pair
MATCH (a:Memory {id: pair.a})-[r:RELATES_TO]-(b:Memory {id: pair.b})
WHERE a.namespace = $namespace AND b.namespace = $namespace
SET r.confidence = CASE WHEN coalesce(r.confidence, 0.0) + $delta > $cap THEN $cap
                        ELSE coalesce(r.confidence, 0.0) + $delta END,
    r.last_reinforced_at = $now,
    r.reinforced_count = coalesce(r.reinforced_count, 0) + 1
RETURN DISTINCT pair.a AS a, pair.b AS b
