UNWIND $rows AS row
MATCH (a:Memory {id: row.from_id})
MATCH (b:Episode {uid: row.to_key})
MERGE (a)-[r:DERIVED_FROM]->(b)
SET r = row.props
RETURN count(r) AS imported
