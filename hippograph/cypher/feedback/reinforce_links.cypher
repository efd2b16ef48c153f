// Either direction counts: relatedness is symmetric. A pair surfaced by several recalls
// at once (coalesced upkeep) is reinforced pair.times times: + times x delta, capped.
UNWIND $pairs AS pair
MATCH (a:Memory {id: pair.a})-[r:RELATES_TO]-(b:Memory {id: pair.b})
WHERE a.namespace = $namespace AND b.namespace = $namespace
SET r.confidence = CASE WHEN coalesce(r.confidence, 0.0) + $delta * pair.times > $cap THEN $cap
                        ELSE coalesce(r.confidence, 0.0) + $delta * pair.times END,
    r.last_reinforced_at = $now,
    r.reinforced_count = coalesce(r.reinforced_count, 0) + pair.times
RETURN DISTINCT pair.a AS a, pair.b AS b
