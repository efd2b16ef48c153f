// The turns left in $sessions, in order: erasing one relinks its neighbours (NEXT).
MATCH (e:Episode)
WHERE e.namespace = $namespace AND e.session_id IN $sessions
RETURN e.session_id AS session_id, e.uid AS uid, e.turn_index AS turn_index
ORDER BY e.session_id, e.turn_index
