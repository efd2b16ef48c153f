// Entities a caller names (relate, defineEntity): created when the namespace has none of that
// name yet, and marked stated either way, so that losing their last mention does not take them.
UNWIND $rows AS row
MERGE (e:Entity {uid: row.uid})
ON CREATE SET e.namespace = $namespace, e.name = row.name, e.canonical = row.canonical,
              e.kind = row.kind, e.kind_cued = true, e.aliases = [],
              e.first_seen = $now, e.last_seen = $now, e.mentions = 0, e.created_at = $now
WITH e
WHERE e.namespace = $namespace
SET e.stated = true
RETURN e.uid AS uid
