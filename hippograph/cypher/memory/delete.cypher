// The tombstone keeps hashes and the embedding, never the text (it blocks restatements).
// WITH before each namespace check: in one MATCH ... WHERE, ArcadeDB looks the node up by its
// namespace index instead of its id (100k memories: ~250 ms against ~1.5 ms).
MATCH (m:Memory {id: $id})
WITH m
WHERE m.namespace = $namespace
CREATE (x:Tombstone {id: $tombstone_id, namespace: $namespace, memory_id: m.id,
                     content_hash: m.content_hash, body_hash: $body_hash,
                     embedding: m.embedding, scope_key: m.scope_key, at: $now,
                     reason: $reason, hard: true})
WITH m
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
WITH m, collect(t) AS tags
FOREACH (t IN tags | SET t.count = t.count - 1)
DETACH DELETE m
RETURN count(*) AS deleted
