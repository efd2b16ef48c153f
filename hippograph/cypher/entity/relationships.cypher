// The relationships of an entity and of those merged into it, both directions ($types: only
// those types, all when empty; $current: only those still holding; $scopes, null: every scope:
// only those a caller or a memory of a scope it sees stated, as recall's: graph.model.scopes).
MATCH (e:Entity {uid: $uid})
WITH e
WHERE e.namespace = $namespace
OPTIONAL MATCH (e)<-[:SAME_AS]-(y:Entity)
WITH [e] + collect(y) AS held
UNWIND held AS x
MATCH (x)-[r:RELATED]-(o:Entity)
WHERE (size($types) = 0 OR r.type IN $types) AND (NOT $current OR r.until IS NULL)
  AND ($scopes IS NULL OR r.source IS NULL OR r.source = 'caller'
       OR EXISTS { MATCH (s:Memory {id: r.source}) WHERE s.scope_key IN $scopes })
RETURN r.type AS type, startNode(r) = x AS outgoing, o.uid AS uid, o.name AS name,
       o.kind AS kind, r.since AS since, r.until AS until, r.source AS source,
       r.created_at AS recorded_at
ORDER BY r.since, r.type, o.name
