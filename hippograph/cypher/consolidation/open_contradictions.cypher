MATCH (a:Memory)-[r:CONTRADICTS]->(b:Memory)
WHERE ($namespace IS NULL OR a.namespace = $namespace)
  AND a.status = 'active' AND b.status = 'active' AND coalesce(r.resolved, false) = false
RETURN a.id AS from_id, b.id AS to_id
