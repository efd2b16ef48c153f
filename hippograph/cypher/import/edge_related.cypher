// Two entities may hold several: one per type, and an ended one beside the open one of its
// type; each is its own by type and the time it was recorded.
UNWIND $rows AS row
MATCH (a:Entity {uid: row.from_id})
MATCH (b:Entity {uid: row.to_key})
MERGE (a)-[r:RELATED {type: row.props.type, created_at: row.props.created_at}]->(b)
SET r = row.props
RETURN count(r) AS imported
