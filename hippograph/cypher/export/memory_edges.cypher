UNWIND $ids AS wanted
MATCH (a:Memory {id: wanted})-[r]->(b)
RETURN type(r) AS type, a.id AS from_id, coalesce(b.id, b.uid) AS to_key, properties(r) AS props
