// The $k nearest memories said by $speaker (a speaker:<name> tag), by an exact scan of that
// speaker's memories: the speaker seeds (CascadeConfig.speaker_seeds) where the shared vector
// index leaves too few of the namespace (recall/vector_seeds_exact runs for the vector seeds);
// recall/vector_feedback takes them from the index's hits otherwise.
MATCH (t:Tag {uid: $namespace + '|' + $speaker})<-[:HAS_TAG]-(m:Memory)
WHERE m.namespace = $namespace AND m.status IN $statuses AND m.embedding IS NOT NULL
  AND (m.scope = 'global' OR (m.scope = 'project' AND m.project = $project)
       OR (m.scope = 'session' AND m.session_id = $session_id))
WITH m, $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift AS cosine
ORDER BY cosine DESC
LIMIT $k
RETURN m.id AS id, elementId(m) AS eid, cosine, m.status AS status
