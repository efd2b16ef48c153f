// The user's name as a namespace last recorded it: its newest active identity memory
// ("The user's name is Maya.", text/standing.py IDENTITY), found through the standing_in index
// (identity memories stand, like instructions), for extraction to write the user's statements
// about them. WITH before the namespace check: see recall/standing_rules.cypher.
MATCH (m:Memory)
WHERE m.standing_in = $namespace
WITH m
WHERE m.namespace = $namespace AND m.status = 'active' AND m.applies_when = $condition
RETURN m.content AS content
ORDER BY m.created_at DESC, m.id
LIMIT 1
