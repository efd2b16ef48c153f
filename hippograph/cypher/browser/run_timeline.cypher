// One agent run as a timeline: its steps in order, each with its tool calls (status,
// duration, error), and the memories distilled from it (experience and warnings).
MATCH (r:Run {id: $run_id})
WITH r
WHERE r.namespace = $namespace
MATCH (r)-[:HAS_STEP]->(s:Step)
OPTIONAL MATCH (s)-[:HAS_TOOL_CALL]->(c:ToolCall)
OPTIONAL MATCH (m:Memory)-[:DERIVED_FROM]->(r)
WITH r, s, c, collect(m.memory_type + ': ' + m.content) AS learned
RETURN r.task AS task, r.success AS success, s.n AS step, s.action AS action,
       c.seq AS seq, c.tool AS tool, c.status AS status, c.duration_ms AS duration_ms,
       c.error AS error, learned
ORDER BY step, seq
