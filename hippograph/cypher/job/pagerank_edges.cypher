MATCH (a:Memory)-[r:RELATES_TO]->(b:Memory)
WHERE a.status = 'active' AND b.status = 'active' AND a <> b
  AND ($namespace IS NULL OR a.namespace = $namespace)
  AND coalesce(r.confidence, 1.0) >= $floor
RETURN a.id AS source, b.id AS target,
       coalesce(r.weight, 1.0) * coalesce(r.confidence, 1.0) AS weight
