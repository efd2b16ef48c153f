MATCH (r:Run {id: $run_id})
WITH r
WHERE r.namespace = $namespace
RETURN r {.*, task_embedding: null} AS run
