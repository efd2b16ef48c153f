// The memories that mention an entity the context names ($uids: the uids its names would have;
// an entity merged into another stands for that one), the nearest to the query first, at most
// $per_entity of each. An entity more memories mention than $max_degree is a hub (the speaker
// of every turn) and is not followed. degree: the memories that mention it, for its rarity.
UNWIND $uids AS wanted
MATCH (n:Entity {uid: wanted})
WITH n
WHERE n.namespace = $namespace
OPTIONAL MATCH (n)-[:SAME_AS]->(k:Entity)
WITH DISTINCT coalesce(k, n) AS e
WHERE coalesce(e.mentions, 0) <= $max_degree
OPTIONAL MATCH (e)<-[:SAME_AS]-(y:Entity)
WITH e, [e] + collect(y) AS held
UNWIND held AS x
MATCH (x)<-[:MENTIONS]-(m:Memory)
WHERE m.namespace = $namespace AND m.status IN $statuses AND m.scope_key IN $scopes
WITH DISTINCT e, m
WITH e, m, $cosine_scale * vector.similarity.cosine(m.embedding, $embedding) + $cosine_shift AS cosine
ORDER BY cosine DESC
WITH e, count(m) AS degree, collect([m.id, elementId(m), cosine, m.status]) AS all
WHERE degree <= $max_degree
RETURN e.uid AS uid, e.name AS name, degree, all[0..$per_entity] AS hits
