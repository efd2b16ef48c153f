// Every active memory of the given scopes of a namespace with its embedding, for an exact
// neighbour search in process when the shared vector index returns too few of ours.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status = 'active' AND m.scope_key IN $scopes
RETURN m.id AS id, m.content AS content, m.memory_type AS memory_type,
       m.created_at AS created_at, m.updated_at AS updated_at, m.scope_key AS scope_key,
       m.embedding AS embedding
LIMIT $limit
