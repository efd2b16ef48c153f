// Neo4j's vector.similarity.cosine is (1 + cosine) / 2.
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
WITH m, collect(t.name) AS tags
RETURN m {.*, embedding: null} AS memory, tags, 2 * vector.similarity.cosine(m.embedding, $embedding) - 1 AS cosine
