UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WHERE m.namespace = $namespace
RETURN m.id AS id, m.embedding AS embedding
