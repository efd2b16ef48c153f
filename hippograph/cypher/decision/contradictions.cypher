MATCH (m:Memory {id: $id})-[r:CONTRADICTS]-(o:Memory)
WHERE m.namespace = $namespace
RETURN o.id AS id, o.content AS content, o.status AS status, r.resolved AS resolved,
       r.resolution AS resolution
