// One entity by uid, with the entities merged into it (SAME_AS: undone by split) and the one
// it was merged into, if any.
MATCH (e:Entity {uid: $uid})
WITH e
WHERE e.namespace = $namespace
OPTIONAL MATCH (x:Entity)-[s:SAME_AS]->(e)
WITH e, collect(CASE WHEN x IS NULL THEN null
                     ELSE {uid: x.uid, name: x.name, at: s.at, reason: s.reason} END) AS merged
OPTIONAL MATCH (e)-[:SAME_AS]->(k:Entity)
RETURN properties(e) AS entity, merged, k.uid AS kept
