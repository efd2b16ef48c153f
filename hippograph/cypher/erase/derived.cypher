// The memories derived from the turns $uids, each with how many other turns it was also
// derived from and whether an explicit remember stated it: either source confirms it.
UNWIND $uids AS wanted
MATCH (m:Memory)-[:DERIVED_FROM]->(:Episode {uid: wanted})
WITH DISTINCT m
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:DERIVED_FROM]->(other:Episode)
WHERE NOT other.uid IN $uids
WITH m, count(other) AS others
OPTIONAL MATCH (d:Decision {memory_id: m.id})
WHERE d.source = 'remember'
RETURN m.id AS id, others, count(d) AS remembered
