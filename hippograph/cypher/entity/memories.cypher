// The memories that mention an entity or one merged into it, newest first, at most $limit:
// what "everything about X" shows (the most important current ones, and a timeline). $scopes
// (null: every scope): the scope keys the caller sees, as recall's (graph.model.scopes).
MATCH (e:Entity {uid: $uid})
WITH e
WHERE e.namespace = $namespace
OPTIONAL MATCH (e)<-[:SAME_AS]-(y:Entity)
WITH [e] + collect(y) AS held
UNWIND held AS x
MATCH (x)<-[r:MENTIONS]-(m:Memory)
WHERE m.status IN $statuses AND ($scopes IS NULL OR m.scope_key IN $scopes)
RETURN m.id AS id, r.role AS role, m.created_at AS at, m.status AS status,
       coalesce(m.importance, 0.0) AS importance, coalesce(m.confidence, 0.0) AS confidence
ORDER BY at DESC
LIMIT $limit
