// What links two entities for their importance: a current RELATED edge, and each active
// memory that mentions both. A memory mentioning more than $members entities (a roll call)
// says little about any pair of them and is left out, so it adds no quadratic fan of pairs.
MATCH (a:Entity)-[r:RELATED]->(b:Entity)
WHERE ($namespace IS NULL OR a.namespace = $namespace) AND r.until IS NULL AND a <> b
RETURN [a.uid, b.uid] AS uids
UNION ALL
MATCH (m:Memory)-[:MENTIONS]->(e:Entity)
WHERE ($namespace IS NULL OR m.namespace = $namespace) AND m.status = 'active'
WITH m, collect(DISTINCT e.uid) AS uids
WHERE size(uids) >= 2 AND size(uids) <= $members
RETURN uids
