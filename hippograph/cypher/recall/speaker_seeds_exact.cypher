// The $k nearest memories said by $speaker (a speaker:<name> tag), by an exact scan of that
// speaker's memories: the speaker seeds (CascadeConfig.gather.speaker_seeds) where the shared vector
// index leaves too few of the namespace (recall/vector_seeds_exact runs for the vector seeds);
// recall/vector_feedback takes them from the index's hits otherwise.
// $as_of (null: now): only memories the store held as current then (learned by then, not yet
// superseded or archived: graph.model.Memory.current_at), so that a recall as of a past time
// seeds from what was current, not from what came later and is dropped.
// $scopes: the scope keys the recall sees (graph.model.scopes; why a stored key: recall/expand).
MATCH (t:Tag {uid: $namespace + '|' + $speaker})<-[:HAS_TAG]-(m:Memory)
WHERE m.namespace = $namespace AND m.status IN $statuses AND m.embedding IS NOT NULL
  AND m.scope_key IN $scopes
  AND ($as_of IS NULL OR (coalesce(m.recorded_at, m.created_at) <= $as_of
       AND (m.status = 'active'
            OR coalesce(m.superseded_at, m.archived_at, m.updated_at) > $as_of)))
WITH m, $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift AS cosine
ORDER BY cosine DESC
LIMIT $k
RETURN m.id AS id, elementId(m) AS eid, cosine, m.status AS status
