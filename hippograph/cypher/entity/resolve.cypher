// The namespace's entities holding one of $names as their canonical name or as an alias, and
// the entity each was merged into (SAME_AS), if any: how a mention finds the node it means.
MATCH (e:Entity)
WHERE e.namespace = $namespace
  AND (e.canonical IN $names OR any(a IN coalesce(e.aliases, []) WHERE a IN $names))
OPTIONAL MATCH (e)-[:SAME_AS]->(k:Entity)
RETURN e.uid AS uid, e.canonical AS canonical, coalesce(e.aliases, []) AS aliases,
       k.uid AS kept
