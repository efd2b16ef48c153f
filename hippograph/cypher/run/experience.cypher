// The memories distilled from a run.
MATCH (r:Run {id: $run_id})
WITH r
WHERE r.namespace = $namespace
MATCH (m:Memory)-[:DERIVED_FROM]->(r)
RETURN m.id AS id, m.memory_type AS memory_type, m.status AS status
ORDER BY m.memory_type, m.id
