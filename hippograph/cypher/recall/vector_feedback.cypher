// The vector seeds and pseudo-relevance feedback in one statement (recall/vector_seeds, then
// recall/feedback on what it found and $fulltext): one round trip less on the query's path.
// near: the vector index's $k nearest memories of the namespace, [id, elementId, cosine,
// status] each, nearest first (the caller falls back to the two statements when they are
// fewer than $k: the shared index left too few). The pool is $fulltext ([{id, eid, ft}], ft
// the full-text score over the best one's; looked up by element id and checked by id) and the
// vector hits not among them (ft 0); embeddings and hits as recall/feedback has them.
// spoken: the $speaker_k nearest of the index's hits said by $speaker (a speaker:<name> tag;
// null: none), as near has them (CascadeConfig.gather.speaker_seeds).
// The full-text hits are looked up in a subquery, one row even when $fulltext is empty: a
// lookup by a null element id (the former UNWIND [null] + OPTIONAL MATCH) made the embedded
// engine scan every node, 0.5-0.8 s a recall at 100,000 memories.
// $as_of (null: now): only memories the store held as current then (learned by then, not yet
// superseded or archived: graph.model.Memory.current_at), so that a recall as of a past time
// seeds from what was current, not from what came later and is dropped.
// $scopes: the scope keys the recall sees (graph.model.scopes; why a stored key: recall/expand).
CALL db.index.vector.queryNodes($vector_index, $candidates, $embedding) YIELD node AS m, score
WITH m, score
WHERE m.namespace = $namespace AND m.status IN $statuses
  AND m.scope_key IN $scopes
  AND ($as_of IS NULL OR (coalesce(m.recorded_at, m.created_at) <= $as_of
       AND (m.status = 'active'
            OR coalesce(m.superseded_at, m.archived_at, m.updated_at) > $as_of)))
WITH m, 2 * score - 1 AS cosine
ORDER BY cosine DESC
WITH collect({m: m, cosine: cosine,
               said: CASE WHEN $speaker IS NULL THEN false
                          ELSE size([(m)-[:HAS_TAG]->(s:Tag) WHERE s.name = $speaker | 1]) > 0
                     END}) AS hits
WITH hits[0..$k] AS near, [x IN hits WHERE x.said][0..$speaker_k] AS spoken
CALL () {
  UNWIND $fulltext AS hit
  MATCH (f)
  WHERE elementId(f) = hit.eid AND f.id = hit.id AND f.namespace = $namespace
    AND f.embedding IS NOT NULL
  RETURN collect({m: f, ft: hit.ft}) AS found
}
WITH [x IN near | [x.m.id, elementId(x.m), x.cosine, x.m.status]] AS near,
     [x IN spoken | [x.m.id, elementId(x.m), x.cosine, x.m.status]] AS spoken,
     found + [x IN near WHERE NOT x.m.id IN [h IN $fulltext | h.id] | {m: x.m, ft: 0.0}] AS pool
UNWIND pool AS p
WITH near, spoken, p.m AS m,
     $cosine_scale * vector.similarity.cosine(p.m.embedding, $embedding) + $cosine_shift AS cosine,
     p.ft AS ft
WITH near, spoken, m, cosine, $alpha * cosine + (1 - $alpha) * ft AS relevance
ORDER BY relevance DESC, m.id
WITH near, spoken, collect({m: m, cosine: cosine}) AS ranked
WITH near, spoken, ranked, [x IN ranked[0..$depth] | x.m.embedding] AS top
RETURN near, spoken, top AS embeddings,
       [x IN ranked | [x.m.id, x.cosine,
         reduce(s = 0.0, e IN top |
           s + $cosine_scale * vector.similarity.cosine(x.m.embedding, e) + $cosine_shift)]] AS hits
