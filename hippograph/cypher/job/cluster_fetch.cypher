// Previous membership comes from earlier generations only: edges this run (or the interrupted
// run it resumes) already wrote must not change the ids it computes. A pattern comprehension
// rather than OPTIONAL MATCH + collect: no grouping over 5,000 nodes (ArcadeDB: ~2x faster).
UNWIND $ids AS wanted
MATCH (m:Memory {id: wanted})
RETURN m.id AS id, m.embedding AS embedding, m.content AS content,
       [(m)-[r:IN_CLUSTER]->(c:Cluster) WHERE coalesce(r.generation, '') <> $generation | c.id]
         AS previous
