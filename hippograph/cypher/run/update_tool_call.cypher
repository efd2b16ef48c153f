// What a call reported later (its status, result, duration, error); null keeps the value.
MATCH (c:ToolCall {id: $id})
WITH c
WHERE c.namespace = $namespace
MATCH (r:Run)-[:HAS_STEP]->(:Step)-[:HAS_TOOL_CALL]->(c)
WITH r, c
WHERE r.ended IS NULL
SET c.status = coalesce($status, c.status), c.result = coalesce($result, c.result),
    c.duration_ms = coalesce($duration_ms, c.duration_ms), c.error = coalesce($error, c.error),
    c.updated = $now, r.touched = $now
RETURN c {.*} AS call
