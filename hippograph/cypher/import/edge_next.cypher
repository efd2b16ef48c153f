UNWIND $rows AS row
MATCH (a:Episode {uid: row.from_id})
MATCH (b:Episode {uid: row.to_key})
MERGE (a)-[r:NEXT]->(b)
SET r = row.props
RETURN count(r) AS imported
