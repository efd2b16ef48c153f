// WITH before each namespace check: in one MATCH ... WHERE, ArcadeDB looks the node up by its
// namespace index instead of its id (100k memories: ~250 ms against ~1.5 ms).
MATCH (m:Memory {id: $id})-[r:HAS_TAG]->(t:Tag {uid: $uid})
WITH m, r, t
WHERE m.namespace = $namespace
DELETE r
SET t.count = t.count - 1
RETURN count(*) AS detached
