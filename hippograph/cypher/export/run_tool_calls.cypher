// The tool calls of the runs $ids (each names its run and step: import links them again).
UNWIND $ids AS wanted
MATCH (:Run {id: wanted})-[:HAS_STEP]->(:Step)-[:HAS_TOOL_CALL]->(c:ToolCall)
RETURN properties(c) AS props
ORDER BY c.run_id, c.seq
