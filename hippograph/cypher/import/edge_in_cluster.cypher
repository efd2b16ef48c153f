UNWIND $rows AS row
MATCH (a:Memory {id: row.from_id})
MATCH (b:Cluster {id: row.to_key})
MERGE (a)-[r:IN_CLUSTER]->(b)
SET r = row.props
RETURN count(r) AS imported
