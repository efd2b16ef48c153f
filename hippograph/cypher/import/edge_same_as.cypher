UNWIND $rows AS row
MATCH (a:Entity {uid: row.from_id})
MATCH (b:Entity {uid: row.to_key})
MERGE (a)-[r:SAME_AS]->(b)
SET r = row.props
RETURN count(r) AS imported
