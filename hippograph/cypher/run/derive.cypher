// The memories distilled from a run point at it, as a memory points at its episodes.
MATCH (r:Run {id: $run_id})
WITH r
WHERE r.namespace = $namespace
UNWIND $ids AS id
MATCH (m:Memory {id: id})
WITH r, m
WHERE m.namespace = $namespace
MERGE (m)-[d:DERIVED_FROM]->(r)
ON CREATE SET d.at = $now, d.weight = 1.0
RETURN count(d) AS linked
