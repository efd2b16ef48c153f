// The namespace's latest agent runs, newest first: how many of their tool calls failed
// (failure, error, timeout) and how many memories they taught. `run_id` feeds the timeline.
MATCH (r:Run)
WHERE r.namespace = $namespace
OPTIONAL MATCH (r)-[:HAS_STEP]->(:Step)-[:HAS_TOOL_CALL]->(c:ToolCall)
WITH r, count(c) AS calls,
     sum(CASE WHEN c.status IN ['failure', 'error', 'timeout'] THEN 1 ELSE 0 END) AS failed
OPTIONAL MATCH (m:Memory)-[:DERIVED_FROM]->(r)
WITH r, calls, failed, count(m) AS learned
RETURN r.id AS run_id, r.task AS task, r.status AS status, r.success AS success,
       r.started AS started, r.steps AS steps, calls, failed, learned
ORDER BY started DESC
LIMIT $limit
