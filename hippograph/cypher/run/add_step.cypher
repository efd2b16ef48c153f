// A step is numbered by its run's counter in the same transaction: two steps of one run
// written at once conflict on the run and one is retried, never given the same number.
// WITH before the namespace check: ArcadeDB then looks the run up by its id index.
MATCH (r:Run {id: $run_id})
WITH r
WHERE r.namespace = $namespace AND r.ended IS NULL
SET r.steps = coalesce(r.steps, 0) + 1, r.touched = $now
WITH r
CREATE (r)-[:HAS_STEP]->(s:Step {namespace: $namespace, run_id: r.id, n: r.steps,
                                 thought: $thought, action: $action,
                                 observation: $observation, at: $now})
RETURN s {.*} AS step
