// $scopes (null: every scope): the scope keys the caller sees, as recall's (graph.model.scopes).
MATCH (m:Memory)
WHERE m.namespace = $namespace AND ($scopes IS NULL OR m.scope_key IN $scopes)
  AND ($status IS NULL OR m.status = $status)
  AND ($memory_type IS NULL OR m.memory_type = $memory_type)
  AND ($scope IS NULL OR m.scope = $scope)
  AND ($project IS NULL OR m.project = $project)
  AND ($session_id IS NULL OR m.session_id = $session_id)
  AND ($text IS NULL OR toLower(m.content) CONTAINS $text)
  AND ($tag_uid IS NULL OR EXISTS { MATCH (m)-[:HAS_TAG]->(:Tag {uid: $tag_uid}) })
  AND ($as_of IS NULL OR (coalesce(m.recorded_at, m.created_at) <= $as_of
       AND (m.status = 'active' OR coalesce(m.superseded_at, m.archived_at, m.updated_at) > $as_of)))
  AND ($after_created IS NULL OR m.created_at < $after_created
       OR (m.created_at = $after_created AND m.id < $after_id))
WITH m
ORDER BY m.created_at DESC, m.id DESC
LIMIT $limit
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
WITH m, collect(t.name) AS tags
RETURN m {.*, embedding: null, ft_terms: null} AS memory, tags
