// Entities mentioned by memories of this transaction ($entities: [{uid, name, canonical, kind,
// cued, aliases, first, last, mentions: [{memory_id, role}]}], one row per entity: merged
// once and counted once, like tag/attach_new, however many memories mention it). The first
// kind a cue gave (in Lisbon, Acme Inc) replaces a guessed one; first_seen and last_seen follow
// the memories' event times.
UNWIND $entities AS ent
MERGE (e:Entity {uid: ent.uid})
ON CREATE SET e.namespace = $namespace, e.name = ent.name, e.canonical = ent.canonical,
              e.kind = ent.kind, e.kind_cued = ent.cued, e.aliases = [],
              e.first_seen = ent.first, e.last_seen = ent.last, e.mentions = 0,
              e.created_at = $now
WITH e, ent
WHERE e.namespace = $namespace
SET e.aliases = coalesce(e.aliases, []) + [a IN ent.aliases WHERE NOT a IN coalesce(e.aliases, [])],
    e.kind = CASE WHEN ent.cued AND NOT coalesce(e.kind_cued, false) THEN ent.kind ELSE e.kind END,
    e.kind_cued = coalesce(e.kind_cued, false) OR ent.cued,
    e.first_seen = CASE WHEN ent.first < e.first_seen THEN ent.first ELSE e.first_seen END,
    e.last_seen = CASE WHEN ent.last > e.last_seen THEN ent.last ELSE e.last_seen END
WITH e, ent
UNWIND ent.mentions AS mention
MATCH (m:Memory {id: mention.memory_id})
WITH e, m, mention
WHERE m.namespace = $namespace
CREATE (m)-[:MENTIONS {role: mention.role, created_at: $now}]->(e)
WITH e, count(m) AS made
SET e.mentions = coalesce(e.mentions, 0) + made
RETURN sum(made) AS mentioned
