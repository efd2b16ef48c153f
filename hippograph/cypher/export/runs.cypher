// Agent runs (graph.runs), paged by id; their steps and tool calls: export/run_parts.
MATCH (r:Run)
WHERE ($namespace IS NULL OR r.namespace = $namespace) AND r.id > $after
WITH r
ORDER BY r.id
LIMIT $limit
RETURN properties(r) AS props
