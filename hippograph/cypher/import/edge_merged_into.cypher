UNWIND $rows AS row
MATCH (a:Memory {id: row.from_id})
MATCH (b:Memory {id: row.to_key})
MERGE (a)-[r:MERGED_INTO]->(b)
SET r = row.props
RETURN count(r) AS imported
