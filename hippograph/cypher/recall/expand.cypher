// One breadth-first hop from the frontier over weighted edges, fan-out bounded per node:
// RELATES_TO (weight x confidence, above a floor), shared tags (only tags carried by at most
// $max_tag_degree memories), shared clusters (size-bounded), SUPERSEDES, and the rest, and
// shared entities (MENTIONS: only entities at most $max_entity_degree memories mention; 0:
// none), the rarest first.
// Each reached memory comes with what ranking needs of it, so it is not looked up again;
// 'SELF' hits score $scored_ids (the seeds, on the first hop). Speakers are read only
// $with_speakers (the speaker cue needs them when one is named; null otherwise).
// $frontier and $scored_ids are [elementId, id] pairs: a memory is looked up by element id
// (direct; an index lookup by id costs ~45 us more each on the embedded engine, four times
// per frontier memory here) and checked by id (a deleted node's element id can be reused).
// One row per edge kind, its hits collected into a list: the embedded engine spends ~30 us
// per returned row over Bolt, a third of this statement when each hit was a row. A hit is
// [src, dst, dst's elementId, type, weight, via, degree, status, memory_type, created_at,
//  last_accessed, confidence, initial_confidence, trust_score, importance, speakers, cosine,
//  length, asks] (expand.HIT_HEAD fields, then candidates.Ranking);
// asks: the memory's content ends in a question mark (rank: CascadeConfig.score.question_discount).
// confidence, initial_confidence, trust_score: as stored. Ranking reads one confidence made of
// them (graph.model.effective_confidence: the decayed one, never below the stated one x trust),
// computed in Python where the rows are decoded (candidates.Ranking.confidence): no WHERE or
// ORDER BY reads it, so no statement need compute it, and a stored copy would need every write
// of the three (feedback, decay, decisions, import) kept in step with it.
// $scopes: the scope keys the recall sees (graph.model.scopes), tested against the key each
// memory stores (scope_key, set by the write path and carried by an export; migrate.scope_keys
// gives it to a memory written without it): one property read and a list test for each memory
// an index or an edge hands over, on every recall, where scope, project and session_id took up
// to five reads and three comparisons.
UNWIND $frontier AS f
MATCH (a) WHERE elementId(a) = f[0] AND a.id = f[1]
WITH f[1] AS src, a
MATCH (a)-[r:RELATES_TO]-(m:Memory)
WHERE m.namespace = $namespace AND m.status IN $statuses
  AND coalesce(r.confidence, 1.0) >= $edge_floor
  AND m.scope_key IN $scopes
WITH src, m, coalesce(r.weight, 1.0) * coalesce(r.confidence, 1.0) AS w, coalesce(r.kind, '') AS via
ORDER BY w DESC
WITH src, collect({m: m, w: w, via: via})[0..$fan_out] AS top
UNWIND top AS hit
WITH src, hit, hit.m AS m
RETURN collect([src, m.id, elementId(m), 'RELATES_TO', hit.w, hit.via, 0,
  m.status, m.memory_type, m.created_at, m.last_accessed,
  m.confidence, m.initial_confidence, m.trust_score,
  m.importance,
  CASE WHEN $with_speakers
       THEN [(m)-[:HAS_TAG]->(s:Tag) WHERE s.name STARTS WITH 'speaker:' | s.name]
       ELSE null END,
  $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift,
  size(m.content), trim(m.content) ENDS WITH '?']) AS hits
UNION ALL
UNWIND $frontier AS f
MATCH (a) WHERE elementId(a) = f[0] AND a.id = f[1]
WITH f[1] AS src, a
MATCH (a)-[:HAS_TAG]->(t:Tag)
WHERE t.count > 1 AND t.count <= $max_tag_degree
MATCH (t)<-[:HAS_TAG]-(m:Memory)
WHERE m.id <> src AND m.namespace = $namespace AND m.status IN $statuses
  AND m.scope_key IN $scopes
WITH src, m, t ORDER BY t.count ASC
WITH src, collect({m: m, via: t.name, degree: t.count})[0..$fan_out] AS top
UNWIND top AS hit
WITH src, hit, hit.m AS m
RETURN collect([src, m.id, elementId(m), 'HAS_TAG', 1.0, hit.via, hit.degree,
  m.status, m.memory_type, m.created_at, m.last_accessed,
  m.confidence, m.initial_confidence, m.trust_score,
  m.importance,
  CASE WHEN $with_speakers
       THEN [(m)-[:HAS_TAG]->(s:Tag) WHERE s.name STARTS WITH 'speaker:' | s.name]
       ELSE null END,
  $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift,
  size(m.content), trim(m.content) ENDS WITH '?']) AS hits
UNION ALL
UNWIND $frontier AS f
MATCH (a) WHERE elementId(a) = f[0] AND a.id = f[1]
WITH f[1] AS src, a
MATCH (a)-[:IN_CLUSTER]->(c:Cluster)
WHERE c.size > 1 AND c.size <= $max_cluster_size
MATCH (c)<-[:IN_CLUSTER]-(m:Memory)
WHERE m.id <> src AND m.namespace = $namespace AND m.status IN $statuses
  AND m.scope_key IN $scopes
WITH src, collect({m: m, via: c.id, degree: c.size})[0..$fan_out] AS top
UNWIND top AS hit
WITH src, hit, hit.m AS m
RETURN collect([src, m.id, elementId(m), 'IN_CLUSTER', 1.0, hit.via, hit.degree,
  m.status, m.memory_type, m.created_at, m.last_accessed,
  m.confidence, m.initial_confidence, m.trust_score,
  m.importance,
  CASE WHEN $with_speakers
       THEN [(m)-[:HAS_TAG]->(s:Tag) WHERE s.name STARTS WITH 'speaker:' | s.name]
       ELSE null END,
  $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift,
  size(m.content), trim(m.content) ENDS WITH '?']) AS hits
UNION ALL
UNWIND $frontier AS f
MATCH (a) WHERE elementId(a) = f[0] AND a.id = f[1]
WITH f[1] AS src, a
MATCH (a)-[r:SUPERSEDES|CONTRADICTS|DERIVED_FROM]-(m:Memory)
WHERE m.namespace = $namespace AND m.status IN $statuses
  AND m.scope_key IN $scopes
WITH src, collect({m: m, type: type(r)})[0..$fan_out] AS top
UNWIND top AS hit
WITH src, hit, hit.m AS m
RETURN collect([src, m.id, elementId(m), hit.type, 1.0, '', 0,
  m.status, m.memory_type, m.created_at, m.last_accessed,
  m.confidence, m.initial_confidence, m.trust_score,
  m.importance,
  CASE WHEN $with_speakers
       THEN [(m)-[:HAS_TAG]->(s:Tag) WHERE s.name STARTS WITH 'speaker:' | s.name]
       ELSE null END,
  $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift,
  size(m.content), trim(m.content) ENDS WITH '?']) AS hits
UNION ALL
UNWIND $frontier AS f
MATCH (a) WHERE elementId(a) = f[0] AND a.id = f[1]
WITH f[1] AS src, a
WHERE $max_entity_degree > 0
MATCH (a)-[:MENTIONS]->(e:Entity)
WHERE e.mentions > 1 AND e.mentions <= $max_entity_degree
MATCH (e)<-[:MENTIONS]-(m:Memory)
WHERE m.id <> src AND m.namespace = $namespace AND m.status IN $statuses
  AND m.scope_key IN $scopes
WITH src, m, e ORDER BY e.mentions ASC
WITH src, collect({m: m, via: e.name, degree: e.mentions})[0..$fan_out] AS top
UNWIND top AS hit
WITH src, hit, hit.m AS m
RETURN collect([src, m.id, elementId(m), 'MENTIONS', 1.0, hit.via, hit.degree,
  m.status, m.memory_type, m.created_at, m.last_accessed,
  m.confidence, m.initial_confidence, m.trust_score,
  m.importance,
  CASE WHEN $with_speakers
       THEN [(m)-[:HAS_TAG]->(s:Tag) WHERE s.name STARTS WITH 'speaker:' | s.name]
       ELSE null END,
  $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift,
  size(m.content), trim(m.content) ENDS WITH '?']) AS hits
UNION ALL
UNWIND $scored_ids AS f
MATCH (m)
WHERE elementId(m) = f[0] AND m.id = f[1] AND m.namespace = $namespace
RETURN collect([f[1], f[1], f[0], 'SELF', 0.0, '', 0,
  m.status, m.memory_type, m.created_at, m.last_accessed,
  m.confidence, m.initial_confidence, m.trust_score,
  m.importance,
  CASE WHEN $with_speakers
       THEN [(m)-[:HAS_TAG]->(s:Tag) WHERE s.name STARTS WITH 'speaker:' | s.name]
       ELSE null END,
  $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift,
  size(m.content), trim(m.content) ENDS WITH '?']) AS hits