UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WHERE m.namespace = $namespace
SET m.adjacency_linked = $now
RETURN count(m) AS stamped
