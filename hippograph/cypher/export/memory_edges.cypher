UNWIND $ids AS wanted
MATCH (a:Memory {id: wanted})-[r]->(b)
WITH r, a, b, b:Episode AS to_episode
RETURN type(r) AS type, a.id AS from_id,
       CASE WHEN to_episode THEN b.uid ELSE coalesce(b.id, b.uid) END AS to_key,
       CASE WHEN to_episode THEN 'Episode' ELSE NULL END AS to_label, properties(r) AS props
