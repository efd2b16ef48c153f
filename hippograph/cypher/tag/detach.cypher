MATCH (m:Memory {id: $id})-[r:HAS_TAG]->(t:Tag {uid: $uid})
WHERE m.namespace = $namespace
DELETE r
SET t.count = t.count - 1
RETURN count(*) AS detached
