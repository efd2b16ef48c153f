MATCH (m:Memory {id: $id})
WHERE m.namespace = $namespace
CREATE (x:Tombstone {id: $tombstone_id, namespace: $namespace, memory_id: m.id,
                     content_hash: m.content_hash, scope_key: m.scope_key, at: $now,
                     reason: $reason, hard: true})
WITH m
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
WITH m, collect(t) AS tags
FOREACH (t IN tags | SET t.count = t.count - 1)
DETACH DELETE m
RETURN count(*) AS deleted
