// A step under its run (imported before it: runs come first), by run id and number.
UNWIND $rows AS row
MATCH (r:Run {id: row.run_id})
MERGE (s:Step {run_id: row.run_id, n: row.n})
SET s = row
MERGE (r)-[:HAS_STEP]->(s)
RETURN count(s) AS imported
