// ArcadeDB's vector.similarity.cosine is the raw cosine.
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
WITH m, collect(t.name) AS tags
RETURN m {.*, embedding: null} AS memory, tags, vector.similarity.cosine(m.embedding, $embedding) AS cosine
