// What a call reported later (its status, result, duration, error); null keeps the value.
// The run by its id (the call's run_id, an index lookup), not by the path back from the call:
// ArcadeDB planned that path from the Run label, a cost that grew with the namespace's runs.
MATCH (c:ToolCall {id: $id})
WITH c
WHERE c.namespace = $namespace
MATCH (r:Run {id: c.run_id})
WITH r, c
WHERE r.ended IS NULL
SET c.status = coalesce($status, c.status), c.result = coalesce($result, c.result),
    c.duration_ms = coalesce($duration_ms, c.duration_ms), c.error = coalesce($error, c.error),
    c.updated = $now, r.touched = $now
RETURN c {.*} AS call
