UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WITH m
WHERE m.status = 'active' AND m.embedding IS NOT NULL
RETURN m.id AS id, m.namespace AS namespace, m.scope_key AS scope_key,
       m.memory_type AS memory_type, m.content AS content, m.provenance AS provenance,
       m.confidence AS confidence, m.strength AS strength, m.created_at AS created_at,
       m.updated_at AS updated_at, m.embedding AS embedding
