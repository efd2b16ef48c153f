// The tombstone keeps hashes and embeddings, never the text (it blocks restatements:
// text/restate.py).
// WITH before each namespace check: in one MATCH ... WHERE, ArcadeDB looks the node up by its
// namespace index instead of its id (100k memories: ~250 ms against ~1.5 ms).
MATCH (m:Memory {id: $id})
WITH m
WHERE m.namespace = $namespace
CREATE (x:Tombstone {id: $tombstone_id, namespace: $namespace, memory_id: m.id,
                     content_hash: m.content_hash, body_hash: $body_hash,
                     embedding: m.embedding, scope_key: m.scope_key, at: $now,
                     neutral_embedding: $neutral_embedding, number_keys: $number_keys,
                     relation_keys: $relation_keys,
                     reason: $reason, hard: true})
WITH m
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
WITH m, collect(t) AS tags
FOREACH (t IN tags | SET t.count = t.count - 1)
DETACH DELETE m
RETURN count(*) AS deleted
