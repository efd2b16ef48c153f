// What ranking needs of each candidate, without its content or payload (the full memory is
// fetched for the chosen few only). The same fields as recall/expand's `scored` map; speakers
// only $with_speakers.
// $cosine_scale and $cosine_shift (the dialect's) turn the engine's similarity into the cosine.
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
WHERE m.namespace = $namespace
RETURN m.id AS id, m.status AS status, m.memory_type AS memory_type,
       m.created_at AS created_at, m.last_accessed AS last_accessed,
       m.confidence AS confidence, m.importance AS importance,
       CASE WHEN $with_speakers
            THEN [(m)-[:HAS_TAG]->(s:Tag) WHERE s.name STARTS WITH 'speaker:' | s.name]
            ELSE [] END AS speakers,
       $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift AS cosine
