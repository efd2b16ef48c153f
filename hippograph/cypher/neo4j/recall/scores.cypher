// What ranking needs of each candidate, without its content or payload (the full memory is
// fetched for the chosen few only). Neo4j's vector.similarity.cosine is (1 + cosine) / 2.
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
WHERE t.name STARTS WITH 'speaker:'
WITH m, collect(t.name) AS speakers
RETURN m.id AS id, m.status AS status, m.memory_type AS memory_type,
       m.created_at AS created_at, m.last_accessed AS last_accessed,
       m.confidence AS confidence, m.importance AS importance, speakers,
       2 * vector.similarity.cosine(m.embedding, $embedding) - 1 AS cosine
