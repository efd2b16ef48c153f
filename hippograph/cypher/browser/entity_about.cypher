// Everything about one entity, by name or alias ($entity): its relationships both ways (an
// ended one with its end), and the memories that mention it, oldest first.
MATCH (e:Entity)
WHERE e.namespace = $namespace
  AND (e.canonical = toLower($entity) OR toLower($entity) IN coalesce(e.aliases, []))
OPTIONAL MATCH (e)<-[:MENTIONS]-(m:Memory)
WITH e, m
ORDER BY m.created_at
WITH e, collect(m.created_at + '  ' + m.content)[0..$limit] AS memories
RETURN e.name AS entity, e.kind AS kind, e.aliases AS aliases,
       [(e)-[r:RELATED]->(o:Entity) | r.type + ' ' + o.name
          + CASE WHEN r.until IS NULL THEN '' ELSE ' (until ' + r.until + ')' END] AS outgoing,
       [(o:Entity)-[r:RELATED]->(e) | o.name + ' ' + r.type
          + CASE WHEN r.until IS NULL THEN '' ELSE ' (until ' + r.until + ')' END] AS incoming,
       memories
