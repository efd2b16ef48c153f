// The MENTIONS of memories whose content changed (an UPDATE): they are read again from the
// new content in the same transaction.
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WITH m
WHERE m.namespace = $namespace
MATCH (m)-[r:MENTIONS]->(e:Entity)
WITH r, e.uid AS uid
DELETE r
RETURN collect(DISTINCT uid) AS uids
