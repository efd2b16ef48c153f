// The namespace's sessions, most recently active first: turn count, first and last times
// (service clock), participants (speakers or roles). Paged by ($after_at, $after_session).
MATCH (e:Episode)
WHERE e.namespace = $namespace
WITH e.session_id AS session, count(e) AS turns, min(e.recorded_at) AS first_at,
     max(e.recorded_at) AS last_at, collect(DISTINCT e.speaker) AS participants,
     min(e.turn_index) AS first_index, max(e.turn_index) AS last_index
WHERE $after_at IS NULL OR last_at < $after_at
   OR (last_at = $after_at AND session > $after_session)
RETURN session, turns, first_at, last_at, participants, first_index, last_index
ORDER BY last_at DESC, session
LIMIT $limit
