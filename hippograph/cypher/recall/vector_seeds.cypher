// $as_of (null: now): only memories the store held as current then (learned by then, not yet
// superseded or archived: graph.model.Memory.current_at), so that a recall as of a past time
// seeds from what was current, not from what came later and is dropped.
// $scopes: the scope keys the recall sees (graph.model.scopes; why a stored key: recall/expand).
CALL db.index.vector.queryNodes($vector_index, $candidates, $embedding) YIELD node AS m, score
WITH m, score
WHERE m.namespace = $namespace AND m.status IN $statuses
  AND m.scope_key IN $scopes
  AND ($as_of IS NULL OR (coalesce(m.recorded_at, m.created_at) <= $as_of
       AND (m.status = 'active'
            OR coalesce(m.superseded_at, m.archived_at, m.updated_at) > $as_of)))
RETURN m.id AS id, elementId(m) AS eid, 2 * score - 1 AS cosine, m.status AS status
ORDER BY cosine DESC
LIMIT $k
