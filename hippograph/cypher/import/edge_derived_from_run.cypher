// A memory distilled from a run (graph.runs.experience).
UNWIND $rows AS row
MATCH (a:Memory {id: row.from_id})
MATCH (b:Run {id: row.to_key})
MERGE (a)-[r:DERIVED_FROM]->(b)
SET r = row.props
RETURN count(r) AS imported
