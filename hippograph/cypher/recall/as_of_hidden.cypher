// A recall asOf $as_of: the namespace's memories the store did not hold as current then -
// learned later, or superseded or archived by then (graph.model.Memory.current_at).
MATCH (m:Memory)
WHERE m.namespace = $namespace
  AND (coalesce(m.recorded_at, m.created_at) > $as_of
       OR (m.status <> 'active' AND coalesce(m.superseded_at, m.archived_at, m.updated_at) <= $as_of))
RETURN m.id AS id
