// Neo4j's vector.similarity.cosine is (1 + cosine) / 2.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status IN $statuses AND m.embedding IS NOT NULL
  AND (m.scope = 'global' OR (m.scope = 'project' AND m.project = $project)
       OR (m.scope = 'session' AND m.session_id = $session_id))
WITH m, 2 * vector.similarity.cosine(m.embedding, $embedding) - 1 AS cosine
ORDER BY cosine DESC
LIMIT $k
RETURN m.id AS id, cosine, m.status AS status
