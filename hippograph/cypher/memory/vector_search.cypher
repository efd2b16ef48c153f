CALL db.index.vector.queryNodes($vector_index, $candidates, $embedding) YIELD node AS m, score
WITH m, score
WHERE m.namespace = $namespace AND m.status IN $statuses
RETURN m.id AS id, 2 * score - 1 AS cosine
ORDER BY cosine DESC
LIMIT $k
