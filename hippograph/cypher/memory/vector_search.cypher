// $scopes (null: every scope): the scope keys the caller sees, as recall's (graph.model.scopes).
// $as_of (null: now): only memories the store held as current then (graph.model.Memory.current_at).
CALL db.index.vector.queryNodes($vector_index, $candidates, $embedding) YIELD node AS m, score
WITH m, score
WHERE m.namespace = $namespace AND m.status IN $statuses
  AND ($scopes IS NULL OR m.scope_key IN $scopes)
  AND ($as_of IS NULL OR (coalesce(m.recorded_at, m.created_at) <= $as_of
       AND (m.status = 'active'
            OR coalesce(m.superseded_at, m.archived_at, m.updated_at) > $as_of)))
RETURN m.id AS id, 2 * score - 1 AS cosine
ORDER BY cosine DESC
LIMIT $k
