// Memories of $namespace whose words are not in its vocabulary yet (graph/vocabulary.py):
// written since the last update, or their content edited (the edit clears the stamp), or
// stamped by an older vocabulary version. Any status: recall seeds from superseded memories too.
MATCH (m:Memory)
WHERE m.namespace = $namespace AND coalesce(m.vocabulary, 0) < $version
RETURN m.id AS id, m.content AS content, m.content_hash AS hash
LIMIT $limit
