// $path_key: the tools of the path that worked; $route_key: of every tool tried (run.distil).
MATCH (r:Run {id: $run_id})
WITH r
WHERE r.namespace = $namespace AND r.ended IS NULL
SET r.ended = $now, r.touched = $now, r.outcome = $outcome, r.success = $success,
    r.status = 'finished', r.path_key = $path_key, r.route_key = $route_key
RETURN r {.*, task_embedding: null} AS run
