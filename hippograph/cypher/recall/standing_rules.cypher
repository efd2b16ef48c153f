// The namespace's standing instructions (write/standing.py): memories whose content tells how
// to answer a kind of request, with that request (applies_when), found through the
// (namespace, standing) index; in scope and of $statuses, at most $limit (recall/standing.py
// matches the context against their conditions).
// $as_of (null: now): only what the store held as current then, as the seed statements.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.standing = true AND m.status IN $statuses
  AND (m.scope = 'global' OR (m.scope = 'project' AND m.project = $project)
       OR (m.scope = 'session' AND m.session_id = $session_id))
  AND ($as_of IS NULL OR (coalesce(m.recorded_at, m.created_at) <= $as_of
       AND (m.status = 'active'
            OR coalesce(m.superseded_at, m.archived_at, m.updated_at) > $as_of)))
RETURN m.id AS id, elementId(m) AS eid, m.applies_when AS condition
ORDER BY m.id
LIMIT $limit
