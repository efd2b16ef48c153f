// The last turn index of each of $sessions (a message sent without one is appended after it).
MATCH (e:Episode)
WHERE e.namespace = $namespace AND e.session_id IN $sessions
RETURN e.session_id AS session, max(e.turn_index) AS last
