// Why an update of a tool call matched nothing: whether it exists, whether its run ended.
MATCH (c:ToolCall {id: $id})
WITH c
WHERE c.namespace = $namespace
MATCH (r:Run {id: c.run_id})
RETURN r.id AS run_id, r.ended AS ended, r.status AS status
