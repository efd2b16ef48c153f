UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WHERE m.namespace = $namespace
RETURN m.id AS id, m.content AS content, m.status AS status, m.updated_at AS updated_at
