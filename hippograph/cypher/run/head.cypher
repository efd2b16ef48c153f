// Why a write to a run matched nothing: whether it exists, has ended, has steps.
MATCH (r:Run {id: $run_id})
WITH r
WHERE r.namespace = $namespace
RETURN r.ended AS ended, r.status AS status, coalesce(r.steps, 0) AS steps
