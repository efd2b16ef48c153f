// Every memory, a page at a time in id order: what its scope key is made from
// (write/migrate.py: scope_keys).
MATCH (m:Memory)
WHERE m.id > $after
WITH m
ORDER BY m.id
LIMIT $limit
RETURN m.id AS id, m.scope AS scope, m.project AS project, m.session_id AS session_id,
       m.scope_key AS scope_key
