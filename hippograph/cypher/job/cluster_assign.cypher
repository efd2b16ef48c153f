// One edge per generation: earlier generations' edges stay untouched until the run prunes them.
UNWIND $rows AS row
MATCH (m:Memory {id: row.id})
MATCH (c:Cluster {id: row.cluster})
MERGE (m)-[r:IN_CLUSTER {generation: $generation}]->(c)
SET r.score = row.score
RETURN count(r) AS assigned
