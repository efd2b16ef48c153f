// Previous membership comes from earlier generations only: edges this run (or the interrupted
// run it resumes) already wrote must not change the ids it computes.
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
OPTIONAL MATCH (m)-[r:IN_CLUSTER]->(c:Cluster)
WHERE coalesce(r.generation, '') <> $generation
WITH m, collect(c.id) AS previous
RETURN m.id AS id, m.embedding AS embedding, m.content AS content, previous
