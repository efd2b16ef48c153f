// How many memories mention entity $uid (or one merged into it), and how many of them are of a
// scope the caller sees ($scopes, as recall's: graph.model.scopes).
MATCH (e:Entity {uid: $uid})
WITH e
WHERE e.namespace = $namespace
OPTIONAL MATCH (e)<-[:SAME_AS]-(y:Entity)
WITH [e] + collect(y) AS held
UNWIND held AS x
OPTIONAL MATCH (x)<-[:MENTIONS]-(m:Memory)
RETURN count(m) AS mentions,
       sum(CASE WHEN m IS NOT NULL AND m.scope_key IN $scopes THEN 1 ELSE 0 END) AS seen
