// Neo4j's vector.similarity.cosine is normalized to (1 + cosine) / 2.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status IN $statuses AND m.embedding IS NOT NULL
WITH m, 2 * vector.similarity.cosine(m.embedding, $embedding) - 1 AS cosine
ORDER BY cosine DESC
LIMIT $k
RETURN m.id AS id, cosine
