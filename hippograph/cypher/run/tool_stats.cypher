// Per tool: calls, successes, failures ($failed: the statuses that count as failed) and the
// mean duration of the calls that reported one.
MATCH (c:ToolCall)
WHERE c.namespace = $namespace AND ($tool IS NULL OR c.tool = $tool)
RETURN c.tool AS tool, count(c) AS calls,
       sum(CASE WHEN c.status = 'success' THEN 1 ELSE 0 END) AS successes,
       sum(CASE WHEN c.status IN $failed THEN 1 ELSE 0 END) AS failures,
       avg(c.duration_ms) AS mean_duration_ms
ORDER BY calls DESC, tool
LIMIT $limit
