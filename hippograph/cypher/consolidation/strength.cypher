MATCH (m:Memory {id: $id})
RETURN coalesce(m.strength, 1) AS strength
