// Split: undo a merge, the entity standing on its own again with what it always held.
MATCH (b:Entity {uid: $uid})
WITH b
WHERE b.namespace = $namespace
MATCH (b)-[s:SAME_AS]->(:Entity)
DELETE s
RETURN count(*) AS split
