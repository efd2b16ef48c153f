// Tags of memories created earlier in the same transaction ($tags: [{name, memory_ids}]):
// their HAS_TAG edges cannot exist yet, so they are created rather than merged, and each
// tag's count moves once (tag/attach is for memories that may carry the tag already).
UNWIND $tags AS tag
MERGE (t:Tag {uid: $namespace + '|' + tag.name})
ON CREATE SET t.name = tag.name, t.namespace = $namespace, t.count = 0, t.created_at = $now
WITH t, tag
UNWIND tag.memory_ids AS memory_id
MATCH (m:Memory {id: memory_id})
WITH t, m
WHERE m.namespace = $namespace
CREATE (m)-[:HAS_TAG {created_at: $now}]->(t)
WITH t, count(m) AS attached
SET t.count = t.count + attached
RETURN sum(attached) AS attached
