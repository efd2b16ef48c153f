// Entities mentioned by memories of this transaction ($rows: [{uid, name, canonical, kind,
// cued, aliases, memory_id, role, at}]): each entity merged by its uid, then a MENTIONS edge
// from the memory. The first kind a cue gave (in Lisbon, Acme Inc) replaces a guessed one;
// first_seen and last_seen follow the memories' event times.
UNWIND $rows AS row
MERGE (e:Entity {uid: row.uid})
ON CREATE SET e.namespace = $namespace, e.name = row.name, e.canonical = row.canonical,
              e.kind = row.kind, e.kind_cued = row.cued, e.aliases = [],
              e.first_seen = row.at, e.last_seen = row.at, e.mentions = 0, e.created_at = $now
WITH e, row
MATCH (m:Memory {id: row.memory_id})
WITH e, row, m
WHERE m.namespace = $namespace AND e.namespace = $namespace
CREATE (m)-[:MENTIONS {role: row.role, created_at: $now}]->(e)
SET e.mentions = coalesce(e.mentions, 0) + 1,
    e.aliases = coalesce(e.aliases, []) + [a IN row.aliases WHERE NOT a IN coalesce(e.aliases, [])],
    e.kind = CASE WHEN row.cued AND NOT coalesce(e.kind_cued, false) THEN row.kind ELSE e.kind END,
    e.kind_cued = coalesce(e.kind_cued, false) OR row.cued,
    e.first_seen = CASE WHEN row.at < e.first_seen THEN row.at ELSE e.first_seen END,
    e.last_seen = CASE WHEN row.at > e.last_seen THEN row.at ELSE e.last_seen END
RETURN count(*) AS mentioned
