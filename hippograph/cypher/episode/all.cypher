MATCH (e:Episode)
WHERE e.namespace = $namespace
RETURN e {.*} AS episode
ORDER BY e.recorded_at, e.session_id, e.turn_index
