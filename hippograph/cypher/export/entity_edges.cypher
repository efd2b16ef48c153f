// Relationships between entities and merges (MENTIONS go out with their memories).
MATCH (a:Entity)-[r:RELATED|SAME_AS]->(b:Entity)
WHERE $namespace IS NULL OR a.namespace = $namespace
RETURN type(r) AS type, a.uid AS from_id, b.uid AS to_key, 'Entity' AS to_label,
       properties(r) AS props
ORDER BY a.uid, b.uid, type, r.created_at
