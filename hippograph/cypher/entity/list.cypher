// The namespace's entities not merged into another, the most mentioned first: of one $kind
// (all when null) whose name or an alias holds $query (all when empty).
MATCH (e:Entity)
WHERE e.namespace = $namespace
  AND ($kind IS NULL OR e.kind = $kind)
  AND ($query = '' OR e.canonical CONTAINS $query
       OR any(a IN coalesce(e.aliases, []) WHERE a CONTAINS $query))
  AND NOT EXISTS { MATCH (e)-[:SAME_AS]->(:Entity) }
RETURN properties(e) AS entity
ORDER BY e.mentions DESC, e.canonical
LIMIT $limit
