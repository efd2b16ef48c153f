// Relationships read from memories that are gone (erased or hard-forgotten): their words
// were the only evidence.
MATCH (a:Entity)-[r:RELATED]->(:Entity)
WHERE a.namespace = $namespace AND r.source IN $ids
DELETE r
RETURN count(*) AS dropped
