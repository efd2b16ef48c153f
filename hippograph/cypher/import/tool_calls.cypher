// A tool call under its run's step (imported before it), by id.
UNWIND $rows AS row
MATCH (r:Run {id: row.run_id})-[:HAS_STEP]->(s:Step {n: row.step})
MERGE (c:ToolCall {id: row.id})
SET c = row
MERGE (s)-[:HAS_TOOL_CALL]->(c)
RETURN count(c) AS imported
