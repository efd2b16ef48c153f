// The namespace's entities not merged into another, the most mentioned first: of one $kind
// (all when null) whose name or an alias holds $query (all when empty). $scopes (null: every
// scope, as recall's: graph.model.scopes): an entity that memories mention only when one of
// them is of a scope the caller sees (one named only by callers, through relate, always).
MATCH (e:Entity)
WHERE e.namespace = $namespace
  AND ($kind IS NULL OR e.kind = $kind)
  AND ($query = '' OR e.canonical CONTAINS $query
       OR any(a IN coalesce(e.aliases, []) WHERE a CONTAINS $query))
  AND NOT EXISTS { MATCH (e)-[:SAME_AS]->(:Entity) }
  AND ($scopes IS NULL
       OR NOT EXISTS { MATCH (e)<-[:MENTIONS]-(:Memory) }
       OR EXISTS { MATCH (e)<-[:MENTIONS]-(m:Memory) WHERE m.scope_key IN $scopes }
       OR EXISTS { MATCH (e)<-[:SAME_AS]-(:Entity)<-[:MENTIONS]-(m:Memory)
                   WHERE m.scope_key IN $scopes })
RETURN properties(e) AS entity
ORDER BY e.mentions DESC, e.canonical
LIMIT $limit
