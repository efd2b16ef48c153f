UNWIND $rows AS row
MATCH (a:Memory {id: row.from_id})
MATCH (b:Tag {uid: row.to_key})
MERGE (a)-[r:HAS_TAG]->(b)
SET r = row.props
RETURN count(r) AS imported
