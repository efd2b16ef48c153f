// Previous membership comes from earlier generations only: edges this run (or the interrupted
// run it resumes) already wrote must not change the ids it computes. A pattern comprehension
// rather than OPTIONAL MATCH + collect: no grouping over the page (ArcadeDB, 5,000 rows of a
// 100k store: 1.3-1.5 s against 1.7-3.8 s).
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
RETURN m.id AS id, m.embedding AS embedding, m.content AS content,
       [(m)-[r:IN_CLUSTER]->(c:Cluster) WHERE coalesce(r.generation, '') <> $generation | c.id]
         AS previous
