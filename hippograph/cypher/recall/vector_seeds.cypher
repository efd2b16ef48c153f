CALL db.index.vector.queryNodes($vector_index, $candidates, $embedding) YIELD node AS m, score
WITH m, score
WHERE m.namespace = $namespace AND m.status IN $statuses
  AND (m.scope = 'global' OR (m.scope = 'project' AND m.project = $project)
       OR (m.scope = 'session' AND m.session_id = $session_id))
RETURN m.id AS id, elementId(m) AS eid, 2 * score - 1 AS cosine, m.status AS status
ORDER BY cosine DESC
LIMIT $k
