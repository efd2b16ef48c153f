// The runs a memory was distilled from (it is DERIVED_FROM them), newest first.
MATCH (m:Memory {id: $memory_id})
WITH m
WHERE m.namespace = $namespace
MATCH (m)-[:DERIVED_FROM]->(r:Run)
WHERE r.namespace = $namespace
RETURN r {.*, task_embedding: null} AS run
ORDER BY r.started DESC, r.id
