// The namespace's entities not merged into another, for the consolidation's duplicate check.
MATCH (e:Entity)
WHERE e.namespace = $namespace AND NOT EXISTS { MATCH (e)-[:SAME_AS]->(:Entity) }
RETURN e.uid AS uid, e.name AS name, e.canonical AS canonical, e.kind AS kind,
       coalesce(e.aliases, []) AS aliases, coalesce(e.mentions, 0) AS mentions
ORDER BY e.uid
