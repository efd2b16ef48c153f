UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
RETURN m.id AS id, m.status AS status, m.updated_at AS updated_at
