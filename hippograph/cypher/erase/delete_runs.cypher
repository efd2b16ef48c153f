// Delete the runs $ids (after their steps and tool calls: erase/delete_steps, _tool_calls).
UNWIND $ids AS wanted
MATCH (r:Run {id: wanted})
WITH r
WHERE r.namespace = $namespace
DETACH DELETE r
RETURN count(*) AS deleted
