// Relationships between entities ($rows: [{from_uid, to_uid, type, since, source, ended,
// single}]), kept bi-temporal: nothing is deleted. A row that says the relationship ended
// closes the open one (until: when it ended; ended_at: when we learned it); a single-valued
// type (LIVES_IN, WORKS_AT) closes the subject's open one to another entity; an open one of
// the same type between the same two is not created twice.
UNWIND $rows AS row
MATCH (a:Entity {uid: row.from_uid})
MATCH (b:Entity {uid: row.to_uid})
WITH a, b, row
WHERE a.namespace = $namespace AND b.namespace = $namespace
OPTIONAL MATCH (a)-[old:RELATED]->(x:Entity)
WHERE old.type = row.type AND old.until IS NULL
  AND ((row.single AND x.uid <> b.uid) OR (row.ended AND x.uid = b.uid))
WITH a, b, row, collect(old) AS closing
FOREACH (o IN closing | SET o.until = row.since, o.ended_at = $now, o.ended_by = row.source)
WITH a, b, row
WHERE NOT row.ended
  AND NOT EXISTS { MATCH (a)-[r:RELATED]->(b) WHERE r.type = row.type AND r.until IS NULL }
CREATE (a)-[r:RELATED {type: row.type, since: row.since, source: row.source, created_at: $now}]->(b)
RETURN count(r) AS related
