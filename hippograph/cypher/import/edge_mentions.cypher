UNWIND $rows AS row
MATCH (a:Memory {id: row.from_id})
MATCH (b:Entity {uid: row.to_key})
MERGE (a)-[r:MENTIONS]->(b)
SET r = row.props
RETURN count(r) AS imported
