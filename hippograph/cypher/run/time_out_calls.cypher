// The calls of abandoned runs that never reported an end.
UNWIND $ids AS id
MATCH (r:Run {id: id})
WITH r
WHERE r.namespace = $namespace
MATCH (r)-[:HAS_STEP]->(:Step)-[:HAS_TOOL_CALL]->(c:ToolCall)
WHERE c.status IN ['pending', 'running']
SET c.status = 'timeout', c.error = coalesce(c.error, $error), c.updated = $now
RETURN count(c) AS timed_out
