// A tool call of step $step (null: the run's latest step), numbered by the run's counter.
MATCH (r:Run {id: $run_id})
WITH r
WHERE r.namespace = $namespace AND r.ended IS NULL
MATCH (r)-[:HAS_STEP]->(s:Step)
WHERE s.n = coalesce($step, r.steps)
SET r.calls = coalesce(r.calls, 0) + 1, r.touched = $now
WITH r, s
CREATE (s)-[:HAS_TOOL_CALL]->(c:ToolCall {id: $id, namespace: $namespace, run_id: r.id,
                                          step: s.n, seq: r.calls, tool: $tool,
                                          arguments: $arguments, result: $result,
                                          status: $status, duration_ms: $duration_ms,
                                          error: $error, at: $now, updated: $now})
RETURN c {.*} AS call
