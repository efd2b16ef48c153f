// Conversation sessions holding memories not yet linked to their neighbouring turns.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.source_session IS NOT NULL AND m.adjacency_linked IS NULL
RETURN DISTINCT m.source_session AS session
LIMIT $limit
