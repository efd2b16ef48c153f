// The active memories consolidation may plan over, with what decides whether it must: their
// full fields are fetched by id, a page at a time, only for buckets with a changed memory
// (consolidation/candidates). Paging this scan by id instead sorted the namespace again for
// every page (ArcadeDB, 100k memories: 95 s for 50 pages).
MATCH (m:Memory)
WHERE ($namespace IS NULL OR m.namespace = $namespace) AND m.status = 'active'
  AND m.embedding IS NOT NULL
RETURN m.id AS id, m.namespace AS namespace, m.scope_key AS scope_key,
       m.updated_at AS updated_at
