// Relationships read from a memory that no longer holds (superseded, archived, expired): one
// still said by an active memory that mentions both entities moves its source there; the
// others end when their memory stopped holding. Ended, never deleted (bi-temporal); one a
// caller stated (source 'caller') has no memory behind it and is left alone.
MATCH (a:Entity)-[r:RELATED]->(b:Entity)
WHERE ($namespace IS NULL OR a.namespace = $namespace) AND r.until IS NULL
  AND r.source IS NOT NULL AND r.source <> 'caller'
MATCH (m:Memory {id: r.source})
WHERE m.status <> 'active'
OPTIONAL MATCH (a)<-[:MENTIONS]-(still:Memory)-[:MENTIONS]->(b)
WHERE still.status = 'active' AND still.namespace = a.namespace
WITH r, m, min(still.id) AS moved
SET r.source = coalesce(moved, r.source),
    r.until = CASE WHEN moved IS NULL
                   THEN coalesce(m.valid_until, m.superseded_at, m.archived_at, m.updated_at, $now)
                   ELSE null END,
    r.ended_at = CASE WHEN moved IS NULL THEN $now ELSE null END,
    r.ended_by = CASE WHEN moved IS NULL THEN 'its memory is ' + m.status ELSE null END
RETURN sum(CASE WHEN moved IS NULL THEN 1 ELSE 0 END) AS ended,
       sum(CASE WHEN moved IS NULL THEN 0 ELSE 1 END) AS moved
