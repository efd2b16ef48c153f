// Exact nearest memories of the namespace by cosine.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND m.status IN $statuses AND m.embedding IS NOT NULL
WITH m, $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift AS cosine
ORDER BY cosine DESC
LIMIT $k
RETURN m.id AS id, cosine
