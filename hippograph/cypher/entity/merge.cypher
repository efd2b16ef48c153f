// Merge: the entity $from is the same as $into. Nothing moves: its mentions and relationships
// stay its own, every read follows the SAME_AS edge, and split deletes the edge again.
MATCH (b:Entity {uid: $from_uid})
MATCH (a:Entity {uid: $into_uid})
WITH a, b
WHERE a.namespace = $namespace AND b.namespace = $namespace
CREATE (b)-[s:SAME_AS {at: $now, reason: $reason}]->(a)
RETURN count(s) AS merged
