// Delete the tool calls of the runs $ids (erased with them: their text goes too).
MATCH (n:ToolCall)
WHERE n.namespace = $namespace AND n.run_id IN $ids
DETACH DELETE n
RETURN count(*) AS deleted
