MATCH (e:Episode)
WHERE e.namespace = $namespace
  AND ($session_id IS NULL OR e.session_id = $session_id)
  AND ($after_session IS NULL OR e.session_id > $after_session
       OR (e.session_id = $after_session AND e.turn_index > $after_index))
OPTIONAL MATCH (m:Memory)-[:DERIVED_FROM]->(e)
WITH e, collect(m.id) AS memory_ids
RETURN e {.*} AS episode, memory_ids
ORDER BY e.session_id, e.turn_index
LIMIT $limit
