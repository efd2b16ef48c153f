MATCH (e:Episode)
WHERE ($namespace IS NULL OR e.namespace = $namespace) AND e.extracted_at IS NULL
RETURN e {.*} AS episode
ORDER BY e.namespace, e.session_id, e.turn_index
LIMIT $limit
