// What ranking needs of each candidate, without its content or payload (the full memory is
// fetched for the chosen few only). ArcadeDB's vector.similarity.cosine is the raw cosine.
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:HAS_TAG]->(t:Tag)
WHERE t.name STARTS WITH 'speaker:'
WITH m, collect(t.name) AS speakers
RETURN m.id AS id, m.status AS status, m.memory_type AS memory_type,
       m.created_at AS created_at, m.last_accessed AS last_accessed,
       m.confidence AS confidence, m.importance AS importance, speakers,
       vector.similarity.cosine(m.embedding, $embedding) AS cosine
