// A namespace's most recent memories, newest first, with their tags.
MATCH (m:Memory)
WHERE m.namespace = $namespace
WITH m
ORDER BY m.created_at DESC, m.id DESC
LIMIT $limit
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
WITH m, t
ORDER BY t.name
WITH m, collect(t.name) AS tags
RETURN m.created_at AS created_at, m.id AS id, m.memory_type AS type, m.status AS status,
       m.content AS content, tags
ORDER BY created_at DESC, id DESC
