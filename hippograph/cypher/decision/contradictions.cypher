// WITH before each namespace check: in one MATCH ... WHERE, ArcadeDB looks the node up by its
// namespace index instead of its id (100k memories: ~250 ms against ~1.5 ms).
MATCH (m:Memory {id: $id})-[r:CONTRADICTS]-(o:Memory)
WITH m, r, o
WHERE m.namespace = $namespace
RETURN o.id AS id, o.content AS content, o.status AS status, r.resolved AS resolved,
       r.resolution AS resolution
