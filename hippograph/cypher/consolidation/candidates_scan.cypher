// Every active memory consolidation plans over, with its fields, in one streamed scan (the
// first run, where every bucket has changed): fetching them by id instead took twice as long
// (ArcadeDB, 100k memories: ~9 s against ~20 s).
MATCH (m:Memory)
WHERE ($namespace IS NULL OR m.namespace = $namespace) AND m.status = 'active'
  AND m.embedding IS NOT NULL
RETURN m.id AS id, m.namespace AS namespace, m.scope_key AS scope_key,
       m.memory_type AS memory_type, m.content AS content, m.provenance AS provenance,
       m.confidence AS confidence, m.strength AS strength, m.created_at AS created_at,
       m.updated_at AS updated_at, m.embedding AS embedding
