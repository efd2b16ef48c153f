// A run's steps in order, each with its tool calls (one row per call; a step without any:
// one row with a null call).
MATCH (r:Run {id: $run_id})
WITH r
WHERE r.namespace = $namespace
MATCH (r)-[:HAS_STEP]->(s:Step)
OPTIONAL MATCH (s)-[:HAS_TOOL_CALL]->(c:ToolCall)
RETURN s {.*} AS step, c {.*} AS call
ORDER BY s.n, c.seq
