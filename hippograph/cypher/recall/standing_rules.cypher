// The namespace's standing instructions (text/standing.py): memories whose content tells how
// to answer a kind of request, with that request (applies_when), found through the index on
// standing_in (the namespace, set on instructions only); in scope and of $statuses, at most
// $limit (recall/standing.py matches the context against their conditions). The content of the
// identity memories ($identity: their condition) too: the user's name.
// WITH before the namespace check: in one MATCH ... WHERE, ArcadeDB looks the nodes up by its
// namespace index instead (a read of the whole namespace: ~250 ms at 100,000 memories).
// $as_of (null: now): only what the store held as current then, as the seed statements.
// $scopes: the scope keys the recall sees (graph.model.scopes; why a stored key: recall/expand).
MATCH (m:Memory)
WHERE m.standing_in = $namespace
WITH m
WHERE m.namespace = $namespace AND m.status IN $statuses
  AND m.scope_key IN $scopes
  AND ($as_of IS NULL OR (coalesce(m.recorded_at, m.created_at) <= $as_of
       AND (m.status = 'active'
            OR coalesce(m.superseded_at, m.archived_at, m.updated_at) > $as_of)))
RETURN m.id AS id, elementId(m) AS eid, m.applies_when AS condition,
       CASE WHEN m.applies_when = $identity THEN m.content END AS content
ORDER BY m.id
LIMIT $limit
