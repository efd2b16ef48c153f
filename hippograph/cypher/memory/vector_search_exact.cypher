// $scopes (null: every scope): the scope keys the caller sees, as recall's (graph.model.scopes).
// Exact nearest memories of the namespace by cosine.
// $as_of (null: now): only memories the store held as current then (graph.model.Memory.current_at).
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status IN $statuses
  AND ($scopes IS NULL OR m.scope_key IN $scopes) AND m.embedding IS NOT NULL
  AND ($as_of IS NULL OR (coalesce(m.recorded_at, m.created_at) <= $as_of
       AND (m.status = 'active'
            OR coalesce(m.superseded_at, m.archived_at, m.updated_at) > $as_of)))
WITH m, $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift AS cosine
ORDER BY cosine DESC
LIMIT $k
RETURN m.id AS id, cosine
