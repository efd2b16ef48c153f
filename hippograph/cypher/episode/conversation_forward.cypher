// One session's turns from the first (or after turn $after), in turn order.
MATCH (e:Episode)
WHERE e.namespace = $namespace AND e.session_id = $session_id
  AND ($after IS NULL OR e.turn_index > $after)
WITH e
ORDER BY e.turn_index
LIMIT $limit
OPTIONAL MATCH (m:Memory)-[:DERIVED_FROM]->(e)
WITH e, collect(m.id) AS memory_ids
RETURN e {.*} AS episode, memory_ids
ORDER BY e.turn_index
