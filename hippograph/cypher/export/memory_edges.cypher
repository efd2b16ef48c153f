UNWIND $ids AS wanted
MATCH (a:Memory {id: wanted})-[r]->(b)
WITH r, a, b, b:Episode AS to_episode, b:Run AS to_run
RETURN type(r) AS type, a.id AS from_id,
       CASE WHEN to_episode THEN b.uid ELSE coalesce(b.id, b.uid) END AS to_key,
       CASE WHEN to_episode THEN 'Episode' WHEN to_run THEN 'Run' ELSE NULL END AS to_label,
       properties(r) AS props
