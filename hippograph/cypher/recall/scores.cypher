// What ranking needs of each candidate, without its content or payload (the full memory is
// fetched for the chosen few only): one row, a list per memory (the embedded engine spends
// ~30 us per returned row over Bolt) of [id, status, memory_type, created_at, last_accessed,
// confidence, initial_confidence, trust_score, importance, speakers, cosine, length, asks], as
// recall/expand's hits (candidates.Ranking); length in characters (rank.length_factor); asks:
// the content ends in a question mark (rank: CascadeConfig.score.question_discount).
// Speakers only $with_speakers (null otherwise, so each list holds scalars only).
// $cosine_scale and $cosine_shift (the dialect's) turn the engine's similarity into the cosine.
// $ids are [elementId, id] pairs: looked up by element id (direct), checked by id.
// confidence, initial_confidence, trust_score: as stored, made one in Python (see recall/expand).
UNWIND $ids AS wanted
MATCH (m)
WHERE elementId(m) = wanted[0] AND m.id = wanted[1] AND m.namespace = $namespace
RETURN collect([m.id,
  m.status, m.memory_type, m.created_at, m.last_accessed,
  m.confidence, m.initial_confidence, m.trust_score,
  m.importance,
  CASE WHEN $with_speakers
       THEN [(m)-[:HAS_TAG]->(s:Tag) WHERE s.name STARTS WITH 'speaker:' | s.name]
       ELSE null END,
  $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift,
  size(m.content), trim(m.content) ENDS WITH '?']) AS rows
