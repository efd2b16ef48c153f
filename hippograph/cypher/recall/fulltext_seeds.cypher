// The index's best $candidates hits (every namespace shares it), then the caller's filters;
// the caller asks again with more candidates when the filters leave too few.
CALL db.index.fulltext.queryNodes($fulltext_index, $query, {limit: $candidates}) YIELD node AS m, score
WITH m, score
WHERE m.namespace = $namespace AND m.status IN $statuses
  AND (m.scope = 'global' OR (m.scope = 'project' AND m.project = $project)
       OR (m.scope = 'session' AND m.session_id = $session_id))
RETURN m.id AS id, score, m.status AS status
ORDER BY score DESC
LIMIT $k
