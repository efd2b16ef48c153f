// Rebuild: the relationships read from memories go (the replay reads them again); those a
// caller made stay.
MATCH (e:Entity)-[r:RELATED]->(:Entity)
WHERE e.namespace = $namespace AND coalesce(r.source, '') <> 'caller'
DELETE r
RETURN count(*) AS deleted
