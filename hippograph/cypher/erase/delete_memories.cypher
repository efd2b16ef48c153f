// Delete the memories, each leaving a tombstone (hashes and embedding, never the text) so
// that no ingest, extraction, paraphrase or rebuild brings it back; tags lose their count.
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
WITH m, row
WHERE m.namespace = $namespace
CREATE (x:Tombstone {id: row.tombstone_id, namespace: $namespace, memory_id: m.id,
                     content_hash: m.content_hash, body_hash: row.body_hash,
                     embedding: m.embedding, scope_key: m.scope_key, at: $now,
                     reason: 'erased', hard: true})
WITH m
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
WITH m, collect(t) AS tags
FOREACH (t IN tags | SET t.count = t.count - 1)
DETACH DELETE m
RETURN count(*) AS deleted
