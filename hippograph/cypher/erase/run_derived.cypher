// The memories distilled from the runs $ids, each with how many other sources state it too:
// runs not erased, turns not erased ($uids are), explicit remembers (a run's own lessons are
// recorded with source 'run', graph.runs.experience).
UNWIND $ids AS wanted
MATCH (m:Memory)-[:DERIVED_FROM]->(:Run {id: wanted})
WITH DISTINCT m
WHERE m.namespace = $namespace
OPTIONAL MATCH (m)-[:DERIVED_FROM]->(other:Run)
WHERE NOT other.id IN $ids
WITH m, count(other) AS runs
OPTIONAL MATCH (m)-[:DERIVED_FROM]->(e:Episode)
WHERE NOT e.uid IN $uids
WITH m, runs, count(e) AS turns
OPTIONAL MATCH (d:Decision {memory_id: m.id})
WHERE d.source = 'remember'
RETURN m.id AS id, runs + turns AS others, count(d) AS remembered
