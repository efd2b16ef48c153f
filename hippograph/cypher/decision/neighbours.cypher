CALL db.index.vector.queryNodes($vector_index, $candidates, $embedding) YIELD node AS m, score
WITH m, score
WHERE m.namespace = $namespace AND m.status = 'active' AND m.scope_key = $scope_key
RETURN m.id AS id, m.content AS content, m.memory_type AS memory_type,
       m.created_at AS created_at, m.updated_at AS updated_at, 2 * score - 1 AS cosine
ORDER BY cosine DESC
LIMIT $k
