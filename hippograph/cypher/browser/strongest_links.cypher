// The strongest RELATES_TO links of a namespace: weight x confidence, as recall expands them.
MATCH (a:Memory)-[r:RELATES_TO]->(b:Memory)
WHERE a.namespace = $namespace
WITH a, r, b, r.weight * r.confidence AS strength
ORDER BY strength DESC, a.id, b.id
LIMIT $limit
RETURN strength, r.weight AS weight, r.confidence AS confidence, r.kind AS kind,
       a.content AS from_content, b.content AS to_content, a, r, b
